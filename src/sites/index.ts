import './types.js';
import './mutations.js';

export { siteRest } from './routes.js';
