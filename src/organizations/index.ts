import './types.js';
import './mutations.js';

export { organizationRest } from './routes.js';
