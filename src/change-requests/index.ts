import './types.js';
import './changes.js';
import './mutations.js';

export { changeRequestRest } from './routes.js';
