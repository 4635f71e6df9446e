import './types.js';

export { aboutRest } from './routes.js';
