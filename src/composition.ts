// Where domains plug into others, wired once: what follows the revision store's writes of page versions (the search
// index, the links: src/revisions/hooks.ts), in their statements. The app gives these to its services
// (`pageVersionHooks`), and every write of content goes through them; the store itself imports neither.
import { pageLinksHook } from './links/writing.js';
import type { PageVersionHook } from './revisions/hooks.js';
import { searchIndexHook } from './search/indexing.js';

export const pageVersionHooks: readonly PageVersionHook[] = [searchIndexHook, pageLinksHook];
