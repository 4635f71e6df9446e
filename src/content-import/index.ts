import './types.js';
import './mutations.js';

export { contentImportRest } from './routes.js';
