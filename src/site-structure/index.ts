import './types.js';
import './mutations.js';
import './published.js';

export { siteStructureRest } from './routes.js';
