import './types.js';
import './mutations.js';

export { changeRequestReviewRest } from './routes.js';
