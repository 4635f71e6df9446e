import './types.js';
import './installation-types.js';
import './mutations.js';

export { integrationAssets } from './assets.js';
export { integrationRest } from './routes.js';
