import './types.js';
import './mutations.js';

export { gitSyncRest } from './routes.js';
