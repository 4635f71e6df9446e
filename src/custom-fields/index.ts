import './types.js';
import './mutations.js';

export { customFieldRest } from './routes.js';
