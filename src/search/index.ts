import './types.js';

export { backfillSearchIndex, searchBackfillTask } from './backfill.js';
export { searchRest } from './routes.js';
