// Hosted OpenAPI specifications: access (access.ts), reading sources (source.ts), processing jobs and their
// scheduling (processing.ts), writes (service.ts), GraphQL (types.ts, mutations.ts) and REST (routes.ts).
import './types.js';
import './mutations.js';

export { openAPIRest } from './routes.js';
