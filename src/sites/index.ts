import './types.js';
import './mutations.js';
import './custom-hostnames.js';

export { siteRest } from './routes.js';
