// Links and backlinks of content: extraction when revisions are written (writing.ts), reads (service.ts, types.ts).
import './types.js';

export { linksRest } from './routes.js';
