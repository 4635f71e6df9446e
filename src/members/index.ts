import './types.js';
import './mutations.js';

export { memberRest } from './routes.js';
