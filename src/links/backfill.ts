// Resolving the links of content written before links to pages and files were stored by id. The migration that made
// them so listed, in LinkBacklog, the page versions that link to a page or a file by path; a background job, enqueued
// at start-up while the list is not empty, resolves each version as a write now does (src/revisions/addresses.ts):
// from the page's file in the revision that wrote it (the tree at its validFrom), to the pages and files there. It
// rewrites the version's markdown and its links in place, then takes it off the list. A stored row otherwise never
// changes; this one means what it meant (each address named that page or file in that revision), so the history it
// belongs to stays true. Idempotent, safe in several instances at once: a version is taken off the list under its row's lock, and another
// instance waits for it, then finds it gone.
import type { SqlRunner } from '../db/client.js';
import type { PageVersion, PrismaClient, Revision } from '../generated/prisma/client.js';
import { defineTask } from '../jobs/queue.js';
import { ContentLayout } from '../revisions/addresses.js';
import { buildTree } from '../revisions/read.js';
import { filesAt, pagesAt } from '../revisions/store.js';
import { insertingLinks } from './writing.js';

/** Versions resolved per transaction. */
const BATCH = 200;

export interface LinkBackfillOutcome {
  /** Versions taken off the list. */
  versions: number;
  /** Among them, those whose markdown changed. */
  resolved: number;
}

export const linkBackfillTask = defineTask<Record<string, never>>({
  name: 'link-backfill',
  run: async (_payload, { services }) => {
    const outcome = await backfillLinks(services.prisma);
    if (outcome.versions) services.logger.info({ job: 'link-backfill', ...outcome }, 'job done');
  },
});

/** Resolves the listed versions until the list is empty, a revision's versions at a time; returns what it did. */
export async function backfillLinks(prisma: PrismaClient, batch = BATCH): Promise<LinkBackfillOutcome> {
  const outcome: LinkBackfillOutcome = { versions: 0, resolved: 0 };
  for (;;) {
    const [next] = await prisma.$queryRaw<Pick<Revision, 'spaceId' | 'line' | 'seq'>[]>`
      SELECT v."spaceId", v.line, v."validFrom" AS seq
        FROM "LinkBacklog" b JOIN "PageVersion" v ON v.id = b."pageVersionId"
       ORDER BY b."pageVersionId" LIMIT 1`;
    if (!next) return outcome;
    const done = await prisma.$transaction(
      async (tx) => {
        const versions = await tx.$queryRaw<PageVersion[]>`
          SELECT v.* FROM "LinkBacklog" b JOIN "PageVersion" v ON v.id = b."pageVersionId"
           WHERE v."spaceId" = ${next.spaceId} AND v.line = ${next.line} AND v."validFrom" = ${next.seq}
           ORDER BY v.id LIMIT ${batch} FOR UPDATE OF b`;
        if (!versions.length) return { versions: 0, resolved: 0 };
        const [revision] = await tx.$queryRaw<Revision[]>`
          SELECT * FROM "Revision" WHERE "spaceId" = ${next.spaceId} AND line = ${next.line} AND seq = ${next.seq}`;
        const resolved: PageVersion[] = [];
        if (revision) {
          const sql: SqlRunner = (query) => tx.$queryRaw(query);
          const layout = new ContentLayout(buildTree(await pagesAt(sql, revision)), await filesAt(sql, revision));
          for (const version of versions) {
            const markdown = version.markdown && layout.resolveLinks(version.markdown, version.pageId).markdown;
            if (markdown !== version.markdown) resolved.push({ ...version, markdown });
          }
        }
        if (resolved.length) {
          const ids = resolved.map((version) => version.id);
          await tx.$executeRaw`
            UPDATE "PageVersion" v SET markdown = r.markdown
              FROM jsonb_to_recordset(${JSON.stringify(resolved.map(({ id, markdown }) => ({ id, markdown })))}::jsonb)
                   AS r(id text, markdown text)
             WHERE v.id = r.id`;
          await tx.$executeRaw`DELETE FROM "PageLink" WHERE "pageVersionId" = ANY(${ids}::text[])`;
          const links = insertingLinks(resolved);
          if (links) await tx.$executeRaw(links);
        }
        await tx.$executeRaw`DELETE FROM "LinkBacklog" WHERE "pageVersionId" = ANY(${versions.map((version) => version.id)}::text[])`;
        return { versions: versions.length, resolved: resolved.length };
      },
      { timeout: 120_000 },
    );
    outcome.versions += done.versions;
    outcome.resolved += done.resolved;
  }
}
