// Processing a specification is a background job (`openapi-process`), one queue per spec so that its runs take turns.
// A create or update of the source sets `processingState` to pending and enqueues a run in the same transaction; a run
// sets it to progress, reads and validates the source (source.ts), and sets it to complete, with `lastProcessedAt`:
// - success: a new version when the files' content hash differs from the latest version's (which it becomes), none
//   otherwise; `lastProcessErrorCode` cleared, `lastProcessedErrorCount` 0;
// - failure: `lastProcessErrorCode` FETCH_TIMEOUT (the source or a file it references did not answer in time),
//   FETCH_ERROR (unreachable, refused, an HTTP error status, too large, too many files) or PARSE_ERROR (not JSON or
//   YAML, not a valid Swagger 2.0 / OpenAPI 3.x document), `lastProcessedErrors` the first 20 problems and
//   `lastProcessedErrorCount` how many there were. The latest version stays what it was.
// A run whose source was changed while it ran records nothing: the run the change enqueued, next in the queue, will.
//
// URL sources are refreshed by the scheduler (src/jobs/schedule.ts, every PURGE_INTERVAL_MINUTES): a spec last
// processed more than REFRESH_AFTER_MS (an hour) ago is set pending and a run enqueued; one left pending or in progress
// for more than STUCK_AFTER_MS (a day: its job failed for good) is enqueued again.
import { Prisma } from '../generated/prisma/client.js';
import { defineTask, enqueueing } from '../jobs/queue.js';
import type { Services } from '../kernel/context.js';
import { recordEvents, recorderFor, systemActor } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { openAPISpecEvent } from './events.js';
import { ProcessingError, readSpecification, type Source } from './source.js';

export const REFRESH_AFTER_MS = 60 * 60_000;
const STUCK_AFTER_MS = 24 * 60 * 60_000;
/** Specs the scheduler enqueues per tick, the longest unprocessed first. */
const REFRESH_BATCH = 100;

interface Payload {
  specId: string;
}

const queueOf = (specId: string) => `openapi-process:${specId}`;

/** The source as a run found it; what it records is written only while the spec still has that source. */
const sameSource = (source: Source) =>
  Prisma.sql`"sourceURL" IS NOT DISTINCT FROM ${source.url ?? null} AND "sourceText" IS NOT DISTINCT FROM ${source.text ?? null}`;

async function processSpec(services: Services, specId: string): Promise<void> {
  const now = services.clock.now();
  const [spec] = await services.sql<{ sourceURL: string | null; sourceText: string | null }>(Prisma.sql`
    UPDATE "OpenAPISpec" SET "processingState" = 'progress', "updatedAt" = ${now} WHERE id = ${specId}
    RETURNING "sourceURL", "sourceText"`);
  // Deleted since it was enqueued: nothing to do.
  if (!spec) return;
  const source: Source = spec.sourceURL !== null ? { url: spec.sourceURL } : { text: spec.sourceText ?? '' };
  try {
    const read = await readSpecification(source, services.fetcher);
    const [entry] = read.files;
    const finished = services.clock.now();
    // One statement: the version (unless the latest has the same content) and the spec's state, under the spec's lock;
    // a new version is recorded, by the system, in the same transaction.
    await services.prisma.$transaction(async (tx) => {
      const [written] = await tx.$queryRaw<{ organizationId: string; slug: string; versionId: string | null }[]>(Prisma.sql`
        WITH spec AS (
          SELECT id, "lastVersionId" FROM "OpenAPISpec" WHERE id = ${specId} AND ${sameSource(source)} FOR UPDATE
        ), version AS (
          INSERT INTO "OpenAPISpecVersion" (id, "specId", url, filesystem, "contentHash", "rawText", "rawFormat", "createdAt")
          SELECT ${newId()}, spec.id, ${source.url ?? null}, ${JSON.stringify(Object.fromEntries(read.files.map((file) => [file.path, file.document])))}::jsonb,
                 ${read.contentHash}, ${entry.text}, ${entry.format}, ${finished}
            FROM spec
           WHERE NOT EXISTS (SELECT 1 FROM "OpenAPISpecVersion" v WHERE v.id = spec."lastVersionId" AND v."contentHash" = ${read.contentHash})
          RETURNING id
        )
        UPDATE "OpenAPISpec" s
           SET "lastVersionId" = coalesce((SELECT id FROM version), s."lastVersionId"), "processingState" = 'complete',
               "lastProcessedAt" = ${finished}, "lastProcessErrorCode" = NULL, "lastProcessedErrors" = NULL,
               "lastProcessedErrorCount" = 0, "updatedAt" = ${finished}
          FROM spec WHERE s.id = spec.id
        RETURNING s."organizationId", s.slug, (SELECT id FROM version) AS "versionId"`);
      if (!written?.versionId) return;
      const processed = { id: specId, organizationId: written.organizationId, slug: written.slug };
      const event = openAPISpecEvent('openapi_spec_version_created', processed, { versionId: written.versionId });
      await recordEvents(tx, recorderFor(services, systemActor('workflow')), [event]);
    });
  } catch (error) {
    if (!(error instanceof ProcessingError)) throw error;
    const finished = services.clock.now();
    await services.sql(Prisma.sql`
      UPDATE "OpenAPISpec"
         SET "processingState" = 'complete', "lastProcessedAt" = ${finished},
             "lastProcessErrorCode" = ${error.code}::"OpenAPIProcessErrorCode",
             "lastProcessedErrors" = ${JSON.stringify(error.problems.map((message) => ({ message })))}::jsonb,
             "lastProcessedErrorCount" = ${error.total}, "updatedAt" = ${finished}
       WHERE id = ${specId} AND ${sameSource(source)}`);
  }
}

export const openAPIProcessTask = defineTask<Payload>({
  name: 'openapi-process',
  maxAttempts: 3,
  run: (payload, { services }) => processSpec(services, payload.specId),
});

/** The end of a statement that enqueues a run of the spec when `when` holds (see enqueueing). */
export const enqueueingProcess = (spec: { id: string; organizationId: string }, createdById: string | null, when: Prisma.Sql) =>
  enqueueing(openAPIProcessTask, { specId: spec.id }, { organizationId: spec.organizationId, createdById, queue: queueOf(spec.id) }, when);

/** Due for a refresh at `now`: a URL source processed long enough ago, or a run that never finished. */
const due = (now: Date) => Prisma.sql`
  "sourceURL" IS NOT NULL AND (
    ("processingState" = 'complete' AND ("lastProcessedAt" IS NULL OR "lastProcessedAt" < ${new Date(now.getTime() - REFRESH_AFTER_MS)}))
    OR ("processingState" <> 'complete' AND "updatedAt" < ${new Date(now.getTime() - STUCK_AFTER_MS)}))`;

/**
 * The scheduler's part: every spec due is set pending and gets a run, each in one statement that checks it is still
 * due (another instance may have taken it meanwhile).
 */
export async function refreshOpenAPISpecs(services: Services): Promise<void> {
  const now = services.clock.now();
  const specs = await services.sql<{ id: string; organizationId: string }>(Prisma.sql`
    SELECT id, "organizationId" FROM "OpenAPISpec" WHERE ${due(now)} ORDER BY "lastProcessedAt" NULLS FIRST, id LIMIT ${REFRESH_BATCH}`);
  for (const spec of specs) {
    await services.sql(Prisma.sql`
      WITH marked AS (
        UPDATE "OpenAPISpec" SET "processingState" = 'pending', "updatedAt" = ${now} WHERE id = ${spec.id} AND ${due(now)} RETURNING id
      ),
      ${enqueueingProcess(spec, null, Prisma.sql`EXISTS (SELECT 1 FROM marked)`)}`);
  }
}
