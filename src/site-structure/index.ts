import './types.js';
import './mutations.js';
import './published-types.js';

export { siteStructureRest } from './routes.js';
