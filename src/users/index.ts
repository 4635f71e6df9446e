import './types.js';
import './mutations.js';

export { userRest } from './routes.js';
