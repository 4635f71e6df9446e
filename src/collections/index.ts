import './types.js';
import './mutations.js';

export { collectionRest } from './routes.js';
