import './types.js';
import './mutations.js';

export { collectionRoutes } from './routes.js';
