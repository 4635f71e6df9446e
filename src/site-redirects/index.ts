import './types.js';
import './mutations.js';

export { siteRedirectRest } from './routes.js';
