import './types.js';
import './mutations.js';

export { teamRest } from './routes.js';
