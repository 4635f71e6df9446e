import './types.js';

export { revisionRest } from './routes.js';
