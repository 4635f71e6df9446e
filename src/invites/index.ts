import './types.js';
import './mutations.js';

export { invitesPages } from './pages.js';
export { invitesRest } from './routes.js';
