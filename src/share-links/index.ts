import './types.js';
import './mutations.js';

export { shareLinkRest } from './routes.js';
