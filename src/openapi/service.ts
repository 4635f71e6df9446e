// Creating, replacing and deleting an organization's OpenAPI specifications. A write of the source sets the spec
// pending and enqueues its processing in the same transaction (processing.ts), so a spec is never pending without a
// run to come. Slugs are unique in an organization (409 on create).
import { Prisma } from '../generated/prisma/client.js';
import type { Context } from '../kernel/context.js';
import { conflict } from '../kernel/errors.js';
import { assertIfMatch, preconditionFailed, tagOf } from '../kernel/etags.js';
import { recordEvents } from '../kernel/events.js';
import { newId } from '../kernel/ids.js';
import { checkSpecAction } from './access.js';
import { openAPISpecEvent } from './events.js';
import { enqueueingProcess } from './processing.js';
import type { Source } from './source.js';

type Tx = Parameters<Parameters<Context['prisma']['$transaction']>[0]>[0];

/** Reads the spec as the write left it, inside its transaction (so before its processing can start). */
export type ReadSpec<Spec> = (tx: Tx, id: string) => Promise<Spec>;

interface Written {
  id: string;
  organizationId: string;
  created: boolean;
}

/**
 * Runs the write (a statement returning the spec's id, organization and whether it created it), enqueues a run,
 * records the creation or the new source, and reads the spec back; undefined when the write wrote nothing. `before`
 * runs first in the transaction.
 */
async function writeAndProcess<Spec>(
  ctx: Context,
  slug: string,
  source: Source,
  write: Prisma.Sql,
  read: ReadSpec<Spec>,
  before?: (tx: Tx) => Promise<void>,
) {
  return ctx.prisma.$transaction(async (tx) => {
    await before?.(tx);
    const [written] = await tx.$queryRaw<Written[]>(write);
    if (!written) return undefined;
    await tx.$queryRaw(Prisma.sql`WITH ${enqueueingProcess(written, ctx.viewer.userId, Prisma.sql`TRUE`)}`);
    const action = written.created ? 'openapi_spec_created' : 'openapi_spec_updated';
    // A URL source is named; a text source only said to be one (it is the document itself).
    await recordEvents(tx, ctx, [openAPISpecEvent(action, { ...written, slug }, { source: source.url ?? 'text' })]);
    return { created: written.created, spec: await read(tx, written.id) };
  });
}

const columns = Prisma.sql`(id, "organizationId", slug, "sourceURL", "sourceText", "processingState", "createdAt", "updatedAt")`;
const values = (ctx: Context, organizationId: string, slug: string, source: Source) => {
  const now = ctx.clock.now();
  return Prisma.sql`(${newId()}, ${organizationId}, ${slug}, ${source.url ?? null}, ${source.text ?? null}, 'pending', ${now}, ${now})`;
};

/** A new spec; 409 when the organization has one with this slug. */
export async function createOpenAPISpec<Spec>(ctx: Context, organizationId: string, slug: string, source: Source, read: ReadSpec<Spec>) {
  await checkSpecAction(ctx, organizationId, 'edit');
  const written = await writeAndProcess(
    ctx,
    slug,
    source,
    Prisma.sql`INSERT INTO "OpenAPISpec" ${columns} VALUES ${values(ctx, organizationId, slug, source)}
      ON CONFLICT ("organizationId", slug) DO NOTHING RETURNING id, "organizationId", true AS created`,
    read,
  );
  if (!written) throw conflict(`An OpenAPI specification with the slug "${slug}" already exists in this organization.`);
  return written.spec;
}

/** The spec with this slug given this source, created when there is none; processed again either way. */
export async function putOpenAPISpec<Spec>(ctx: Context, organizationId: string, slug: string, source: Source, read: ReadSpec<Spec>) {
  await checkSpecAction(ctx, organizationId, 'edit');
  const written = await writeAndProcess(
    ctx,
    slug,
    source,
    // xmax is 0 on a row this statement inserted, and the updating transaction's id on one it updated.
    Prisma.sql`INSERT INTO "OpenAPISpec" ${columns} VALUES ${values(ctx, organizationId, slug, source)}
      ON CONFLICT ("organizationId", slug) DO UPDATE
        SET "sourceURL" = excluded."sourceURL", "sourceText" = excluded."sourceText", "processingState" = 'pending',
            "updatedAt" = excluded."updatedAt"
      RETURNING id, "organizationId", (xmax = 0) AS created`,
    read,
    // If-Match names the spec the client read: one replaced since, or none at all, is a 412 (RFC 9110 §13.1.1).
    async (tx) => {
      if (!ctx.ifMatch) return;
      const [current] = await tx.$queryRaw<{ id: string; rowVersion: number }[]>(
        Prisma.sql`SELECT id, "rowVersion" FROM "OpenAPISpec" WHERE "organizationId" = ${organizationId} AND slug = ${slug} FOR UPDATE`,
      );
      if (!current) throw preconditionFailed('OpenAPI specification');
      assertIfMatch(ctx, 'OpenAPI specification', tagOf(current));
    },
  );
  return written!;
}

/** Deletes the spec with this slug and its versions; false when there was none. */
export async function deleteOpenAPISpec(ctx: Context, organizationId: string, slug: string): Promise<boolean> {
  await checkSpecAction(ctx, organizationId, 'delete');
  return ctx.prisma.$transaction(async (tx) => {
    const [deleted] = await tx.$queryRaw<{ id: string; rowVersion: number }[]>(
      Prisma.sql`DELETE FROM "OpenAPISpec" WHERE "organizationId" = ${organizationId} AND slug = ${slug} RETURNING id, "rowVersion"`,
    );
    if (!deleted) return false;
    // The DELETE holds the row: a stale If-Match undoes it.
    assertIfMatch(ctx, 'OpenAPI specification', tagOf(deleted));
    await recordEvents(tx, ctx, [openAPISpecEvent('openapi_spec_deleted', { id: deleted.id, organizationId, slug })]);
    return true;
  });
}
