// Links and backlinks of content: extraction when revisions are written (writing.ts), reads (service.ts, types.ts),
// and the resolution of links written by path before they were stored by id (backfill.ts).
import './types.js';

export { linksRest } from './routes.js';
