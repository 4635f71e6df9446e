// Deleted spaces stay restorable this long; the purge job removes them after it (src/spaces/purge.ts).
export const RETENTION_DAYS = 7;
export const RETENTION_MS = RETENTION_DAYS * 24 * 60 * 60 * 1000;
