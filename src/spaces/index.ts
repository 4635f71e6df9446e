import './types.js';
import './mutations.js';

export { spaceRest } from './routes.js';
