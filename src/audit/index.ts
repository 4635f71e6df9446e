import './types.js';

export { auditRest } from './routes.js';
