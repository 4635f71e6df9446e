import './types.js';
import './mutations.js';

export { grantRest } from './routes.js';
