import './types.js';

export { searchRest } from './routes.js';
