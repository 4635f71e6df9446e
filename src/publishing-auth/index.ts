import './types.js';
import './mutations.js';

export { publishingAuthRest } from './routes.js';
