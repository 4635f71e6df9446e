import './types.js';
import './changes.js';
import './content-reads.js';
import './mutations.js';

export { changeRequestRest } from './routes.js';
