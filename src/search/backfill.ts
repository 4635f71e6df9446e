// Indexing what was written before the search index existed: its migration listed those spaces in SearchBacklog; a
// background job, enqueued at start-up while the list is not empty, indexes their current pages a batch at a time (sections need the markdown AST, which SQL lacks) and
// empties the list. Idempotent, safe in several instances at once; writes meanwhile index themselves (indexing.ts).
// A batch holds the space's row lock FOR SHARE (merges take it FOR UPDATE): no page is closed while it is indexed.
import type { PrismaClient } from '../generated/prisma/client.js';
import { defineTask } from '../jobs/queue.js';
import { MAIN } from '../revisions/store.js';
import { type IndexedVersion, insertingIndex } from './indexing.js';
import { SEARCHED_PAGE_TYPES } from './sections.js';

/** Pages indexed per transaction. */
const BATCH = 200;

export interface BackfillOutcome {
  spaces: number;
  pages: number;
}

export const searchBackfillTask = defineTask<Record<string, never>>({
  name: 'search-backfill',
  run: async (_payload, { services }) => {
    const outcome = await backfillSearchIndex(services.prisma);
    if (outcome.spaces) services.logger.info({ job: 'search-backfill', ...outcome }, 'job done');
  },
});

/** Indexes the backlog's spaces until it is empty; returns what it indexed. */
export async function backfillSearchIndex(prisma: PrismaClient, batch = BATCH): Promise<BackfillOutcome> {
  const outcome: BackfillOutcome = { spaces: 0, pages: 0 };
  for (;;) {
    const [next] = await prisma.$queryRaw<{ spaceId: string }[]>`SELECT "spaceId" FROM "SearchBacklog" ORDER BY "spaceId" LIMIT 1`;
    if (!next) return outcome;
    outcome.pages += await indexSpace(prisma, next.spaceId, batch);
    outcome.spaces++;
  }
}

/** Indexes a space's current pages that are not indexed yet, batch after batch, then takes it off the backlog. */
async function indexSpace(prisma: PrismaClient, spaceId: string, batch: number): Promise<number> {
  let indexed = 0;
  for (;;) {
    const count = await prisma.$transaction(
      async (tx) => {
        const [space] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Space" WHERE id = ${spaceId} FOR SHARE`;
        const versions = space
          ? await tx.$queryRaw<IndexedVersion[]>`
              SELECT v.id, v."pageId", v.type::text AS type, v.title, v.description, v.markdown, v.document
                FROM "PageVersion" v
               WHERE v."spaceId" = ${spaceId} AND v.line = ${MAIN} AND v."validTo" IS NULL AND NOT v.deleted
                 AND v.type::text = ANY(${[...SEARCHED_PAGE_TYPES]}::text[])
                 AND NOT EXISTS (SELECT 1 FROM "PageSearch" p WHERE p."pageVersionId" = v.id)
               ORDER BY v.id LIMIT ${batch}`
          : [];
        const insert = insertingIndex(spaceId, versions);
        if (insert) await tx.$executeRaw(insert);
        if (versions.length < batch) await tx.$executeRaw`DELETE FROM "SearchBacklog" WHERE "spaceId" = ${spaceId}`;
        return versions.length;
      },
      { timeout: 120_000 },
    );
    indexed += count;
    if (count < batch) return indexed;
  }
}
