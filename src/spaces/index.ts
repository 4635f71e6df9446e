import './types.js';
import './mutations.js';

export { spaceRoutes } from './routes.js';
