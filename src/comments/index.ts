import './types.js';
import './mutations.js';

export { commentRest } from './routes.js';
