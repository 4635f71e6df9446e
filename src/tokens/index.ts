import './types.js';
import './mutations.js';

export { tokenRest } from './routes.js';
