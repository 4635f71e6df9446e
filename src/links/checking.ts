// Checking the external URLs that content links to. A write that stores a link to a URL never checked, or last
// checked more than a day ago, marks it due and enqueues a link-check job in its own statement (writing.ts); the
// scheduler marks week-old checks due again. A job checks the due URLs through the guarded fetcher (HEAD, then GET;
// redirects followed hop by hop; loopback, private and link-local addresses refused unless ALLOW_PRIVATE_NETWORK),
// at most two requests at a time and two a second per host, eight at a time in all. Link-check jobs share one named
// queue, so they run one at a time whatever the number of workers, and the per-host limits hold for the instance.
// Times are the wall clock's, as the revision store's writes are.
import PQueue from 'p-queue';
import { Prisma } from '../generated/prisma/client.js';
import { defineTask, enqueueing, enqueueingAside, noJobQueued } from '../jobs/queue.js';
import type { Services } from '../kernel/context.js';
import { FetchError, type Fetcher } from '../kernel/fetcher.js';

export type CheckStatus = 'ok' | 'broken' | 'skipped';

export interface CheckResult {
  url: string;
  status: CheckStatus;
  /** The final HTTP status, after redirects; null when none came. */
  httpStatus: number | null;
  /** The fetcher's code and message when no answer came. */
  error: string | null;
}

/** The longest URL checked: longer ones (rare, and beyond what the key's B-tree holds) stay unchecked, shown `ok`. */
export const MAX_CHECKED_URL = 2048;
/** A write that links a URL last checked longer ago than this has it checked again. */
export const RECHECK_ON_WRITE_MS = 24 * 3_600_000;
/** The scheduler has checks older than this done again. */
const RECHECK_MS = 7 * 24 * 3_600_000;
/** Due URLs read and written per round of a job. */
const BATCH = 100;
const PER_HOST = { concurrency: 2, intervalCap: 2, interval: 1000 };
const AT_ONCE = 8;

/** Answers that say the page exists though the checker may not see it (sign-in, refusal of robots, rate limit). */
const EXISTS_UNSEEN = new Set([401, 403, 429]);

/** What an HTTP status says of a link: 2xx (and the answers above) ok, anything else broken. */
export const verdict = (status: number): CheckStatus => ((status >= 200 && status <= 299) || EXISTS_UNSEEN.has(status) ? 'ok' : 'broken');

async function checkOne(fetcher: Fetcher, url: string, timeoutMs: number): Promise<CheckResult> {
  try {
    const answered = await fetcher.check(url, { timeoutMs });
    return { url, status: verdict(answered.status), httpStatus: answered.status, error: null };
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    // A link into a private network may be right (an intranet, a local server in a tutorial): not checked, not broken.
    const status = error.code === 'PRIVATE_ADDRESS' ? 'skipped' : 'broken';
    return { url, status, httpStatus: null, error: `${error.code}: ${error.message}` };
  }
}

/** Checks the URLs, within the per-host and overall limits; one result per URL, in their order. */
export async function checkUrls(fetcher: Fetcher, urls: readonly string[], timeoutMs: number): Promise<CheckResult[]> {
  const overall = new PQueue({ concurrency: AT_ONCE });
  const hosts = new Map<string, PQueue>();
  const hostQueue = (url: string) => {
    const host = URL.canParse(url) ? new URL(url).host : url;
    let queue = hosts.get(host);
    if (!queue) {
      queue = new PQueue(PER_HOST);
      hosts.set(host, queue);
    }
    return queue;
  };
  // No queue timeout is set, so every task gives its result; throwOnTimeout tells p-queue's types so.
  const always = { throwOnTimeout: true } as const;
  return Promise.all(urls.map((url) => hostQueue(url).add(() => overall.add(() => checkOne(fetcher, url, timeoutMs), always), always)));
}

const dueNow = (now: Date) => Prisma.sql`"dueAt" IS NOT NULL AND "dueAt" <= ${now}`;

export const linkCheckTask = defineTask<Record<string, never>>({
  name: 'link-check',
  maxAttempts: 3,
  run: async (_payload, { services, progress }) => {
    const started = new Date();
    const timeoutMs = services.config.linkCheckTimeoutSeconds * 1000;
    const [{ due }] = await services.sql<{ due: number }>(
      Prisma.sql`SELECT count(*)::int AS due FROM "LinkCheck" WHERE ${dueNow(started)}`,
    );
    let done = 0;
    for (;;) {
      const rows = await services.sql<{ url: string }>(
        Prisma.sql`SELECT url FROM "LinkCheck" WHERE ${dueNow(started)} ORDER BY "dueAt", url LIMIT ${BATCH}`,
      );
      if (!rows.length) break;
      const results = await checkUrls(
        services.fetcher,
        rows.map((row) => row.url),
        timeoutMs,
      );
      await services.sql(Prisma.sql`
        UPDATE "LinkCheck" c SET status = r.status, "httpStatus" = r."httpStatus", error = r.error,
               "checkedAt" = ${new Date()}, "dueAt" = NULL
          FROM jsonb_to_recordset(${JSON.stringify(results)}::jsonb) AS r(url text, status text, "httpStatus" int, error text)
         WHERE c.url = r.url`);
      done += rows.length;
      await progress(done, Math.max(due, done));
    }
  },
});

/** No link-check job is waiting to start (a running one may have read its URLs already, so it does not count). */
const noCheckWaiting = noJobQueued(linkCheckTask);

/**
 * Common table expressions of a write's statement that enqueue a link check when its `fresh` (the URLs it made due)
 * is not empty and no check is waiting already; the statement's end must read `queued` (see enqueueingAside).
 */
export const enqueueingCheckOfFresh = () =>
  enqueueingAside(linkCheckTask, {}, { queue: linkCheckTask.name }, Prisma.sql`EXISTS (SELECT 1 FROM fresh) AND ${noCheckWaiting}`);

/** The scheduler's part: checks older than a week become due, and a job is enqueued while any is due. One statement. */
export async function scheduleLinkChecks(services: Services): Promise<void> {
  const now = new Date();
  await services.prisma.$queryRaw(Prisma.sql`
    WITH fresh AS (
      UPDATE "LinkCheck" SET "dueAt" = ${now} WHERE "dueAt" IS NULL AND "checkedAt" < ${new Date(now.getTime() - RECHECK_MS)}
      RETURNING url
    ),
    waiting AS (SELECT url FROM fresh UNION ALL (SELECT url FROM "LinkCheck" WHERE "dueAt" IS NOT NULL LIMIT 1)),
    ${enqueueing(linkCheckTask, {}, { queue: linkCheckTask.name }, Prisma.sql`EXISTS (SELECT 1 FROM waiting) AND ${noCheckWaiting}`)}`);
}

/** Forgets the checks of URLs that nothing links to any more (the purge's part). */
export const forgetUnlinkedChecks = (services: Services) =>
  services.prisma.$executeRaw`
    DELETE FROM "LinkCheck" c WHERE NOT EXISTS (SELECT 1 FROM "PageLink" l WHERE l.target = c.url AND l.kind = 'url')`;
