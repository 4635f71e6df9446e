import './types.js';
import './mutations.js';

export { organizationRoutes } from './routes.js';
