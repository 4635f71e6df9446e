import './types.js';

export { userRest } from './routes.js';
