import './types.js';
import './mutations.js';

export { webhookRest } from './routes.js';
