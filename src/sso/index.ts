import './types.js';
import './mutations.js';

export { ssoPages } from './pages.js';
export { ssoRest } from './routes.js';
