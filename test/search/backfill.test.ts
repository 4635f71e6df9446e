// Content written before the search index existed: the index's migration lists the spaces that had content, and the
// backfill (src/search/backfill.ts) indexes their current pages, batch after batch, then finds them through the API.
import { expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { MAIN } from '../../src/revisions/store.js';
import { backfillSearchIndex } from '../../src/search/backfill.js';
import { useUpgradedApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { buildWorld, type World } from '../support/world.js';

let world: World;
const spaces: Record<'legacy' | 'empty' | 'gone', string> = { legacy: '', empty: '', gone: '' };

// A database as it stood before the search index: the migrations before it, and content.
const { t, database } = useUpgradedApi('_search_index', { fill, beforeStart: deleteGone });

async function fill({ prisma }: Database): Promise<void> {
  world = await buildWorld(prisma);
  const legacy = await buildSpace(prisma, { organizationId: world.organizationId, title: 'Legacy' });
  const empty = await buildSpace(prisma, { organizationId: world.organizationId, title: 'Empty' });
  const gone = await buildSpace(prisma, { organizationId: world.organizationId, title: 'Gone' });
  Object.assign(spaces, { legacy: legacy.id, empty: empty.id, gone: gone.id });
  const version = (spaceId: string, pageId: string, title: string, extra: Partial<Prisma.PageVersionUncheckedCreateInput> = {}) =>
    prisma.pageVersion.create({
      data: { id: newId(), spaceId, line: MAIN, pageId, validFrom: 1, title, slug: pageId, markdown: `About ${title}.`, ...extra },
    });
  // Five current pages (more than a batch of two), a page closed since, a change request's page, a link.
  for (let i = 1; i <= 5; i++) {
    await version(legacy.id, `legacy${i}`, `Legacy ${i}`, { markdown: `# Legacy ${i}\n\n## Albatross ${i}\n\nSeabird number ${i}.\n` });
  }
  await version(legacy.id, 'closed', 'Closed', { validTo: 2, markdown: 'An albatross of the past.\n' });
  await version(legacy.id, 'drafted', 'Drafted', { line: 'change-request', markdown: 'An albatross in a draft.\n' });
  await version(legacy.id, 'link', 'Albatross link', { type: 'link', markdown: null });
  await version(gone.id, 'gonePage', 'Gone albatross');
}

/** A space deleted for good before the backfill ran. */
async function deleteGone({ prisma }: Database): Promise<undefined> {
  await prisma.space.delete({ where: { id: spaces.gone } });
}

const found = async (query: string) => {
  const res = await t.request('GET', `/v1/orgs/${world.organizationId}/search?query=${query}`, { token: world.admin.token });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { pages: { id: string }[] }[]).flatMap((space) => space.pages.map((hit) => hit.id)).sort();
};

it('lists the spaces that had primary content, indexes their current pages batch after batch, and empties the list', async () => {
  const backlog = await database.prisma.searchBacklog.findMany({ orderBy: { spaceId: 'asc' } });
  expect(backlog.map((row) => row.spaceId)).toEqual([spaces.legacy, spaces.gone].sort());
  expect(await found('albatross')).toEqual([]);

  expect(await backfillSearchIndex(database.prisma, 2)).toEqual({ spaces: 2, pages: 5 });
  expect(await database.prisma.searchBacklog.count()).toBe(0);
  expect(await found('albatross')).toEqual(['legacy1', 'legacy2', 'legacy3', 'legacy4', 'legacy5']);
  const res = await t.request('GET', `/v1/spaces/${spaces.legacy}/search?query=seabird%201`, { token: world.admin.token });
  expect(res.body.items[0].sections).toEqual([
    expect.objectContaining({ id: 'albatross-1', title: 'Albatross 1', body: 'Seabird number 1.' }),
  ]);

  // Nothing left to do: a second run (another instance, a restart) indexes nothing twice.
  expect(await backfillSearchIndex(database.prisma, 2)).toEqual({ spaces: 0, pages: 0 });
  await database.prisma.searchBacklog.create({ data: { spaceId: spaces.legacy } });
  expect(await backfillSearchIndex(database.prisma, 2)).toEqual({ spaces: 1, pages: 0 });
  const [{ pages, sections }] = await database.prisma.$queryRaw<{ pages: number; sections: number }[]>`
    SELECT (SELECT count(*)::int FROM "PageSearch" WHERE "spaceId" = ${spaces.legacy}) AS pages,
           (SELECT count(*)::int FROM "PageSection" s JOIN "PageVersion" v ON v.id = s."pageVersionId" WHERE v."spaceId" = ${spaces.legacy}) AS sections`;
  expect([pages, sections]).toEqual([5, 10]);
});
