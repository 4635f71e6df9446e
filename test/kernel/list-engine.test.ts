// The list engine (src/kernel/lists.ts) called directly, on a database of the file's own: one statement for the pages
// of many parents, each with its count and its next-page token; keyset walks without duplicates or gaps where the
// order ties, either way; page tokens valid only for the list that issued them; the limits; rows read whole or
// through the source's fetch; annotations computed in one batch per load. Its lists are of a source of the test's
// own, over Space rows, so that what is asserted is the engine, not a domain's rules of who sees what.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/composition.js';
import { loadConfig } from '../../src/config.js';
import { Prisma, type Space } from '../../src/generated/prisma/client.js';
import { rowAnnotation } from '../../src/kernel/annotations.js';
import { authenticate, type Context, createContext, type Services } from '../../src/kernel/context.js';
import { type ListPage, type ListSource, loadPages, type PageArgs } from '../../src/kernel/lists.js';
import { createLogger } from '../../src/logger.js';
import { useDatabase } from '../support/database.js';
import { buildOrganization, buildSpace, buildSpaces, buildUser } from '../support/factories.js';
import { oneCharacterOff } from '../support/tamper.js';

const db = useDatabase();
let ctx: Context;
let services: Services;

/** The services as src/app.ts makes them, over the file's database, and a request's context for a user, as it does too. */
beforeAll(async () => {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir() });
  services = createServices({ db, config, secret: randomBytes(32), logger: createLogger(config.logLevel) });
  const user = await buildUser(db.prisma);
  ctx = createContext(services, await authenticate(services, `Bearer ${user.token}`));
});
afterAll(() => services?.fetcher.close());

interface SpaceListArgs {
  descending?: boolean;
}

/**
 * An organization's live spaces by position, then id, ascending unless asked otherwise, with what the engine asked of
 * it: the ids each fetch was for, and the rows each annotation batch was for.
 */
function spacesSource() {
  const fetched: string[][] = [];
  const annotated: string[][] = [];
  const titleLength = rowAnnotation<Space, number>('title length', async (_ctx, rows) => {
    annotated.push(rows.map((row) => row.id));
    return rows.map((row) => row.title.length);
  });
  const source: ListSource<Space, SpaceListArgs> = {
    table: 'Space',
    parentColumn: 'organizationId',
    orderBy: [
      { column: 'position', type: 'float8' },
      { column: 'id', type: 'text' },
    ],
    descending: (args) => args.descending === true,
    where: () => Prisma.sql`t."deletedAt" IS NULL`,
    scope: (organizationId, args) => `engine-test:${organizationId}:${args.descending ? 'desc' : 'asc'}`,
    // In reverse, as Prisma may answer in any order: the engine puts the rows back in the page's order.
    fetch: async (context, query, ids) => {
      fetched.push(ids);
      return (await context.prisma.space.findMany({ ...query, where: { id: { in: ids } } })).reverse();
    },
    annotations: [titleLength],
  };
  return { source, fetched, annotated, titleLength };
}

/**
 * An organization with a space at each of these positions, its id `<organization id>-<index>` (two digits, so that
 * ids of one organization order by index in any collation). Returns the organization and its spaces' ids in the
 * list's order: by position, then index.
 */
async function organizationWith(positions: readonly number[]) {
  const { organization } = await buildOrganization(db.prisma);
  const ids = positions.map((_, i) => `${organization.id}-${String(i).padStart(2, '0')}`);
  for (const [i, position] of positions.entries()) {
    await buildSpace(db.prisma, { id: ids[i], organizationId: organization.id, position, title: `Space ${i}` });
  }
  const inOrder = positions
    .map((position, i) => ({ position, i }))
    .sort((a, b) => a.position - b.position || a.i - b.i)
    .map(({ i }) => ids[i]);
  return { organizationId: organization.id, ids: inOrder };
}

/** The pages of a load, failing on a parent's error; and the number of statements the load ran. */
async function load(source: ListSource<Space, SpaceListArgs>, parents: string[], args: SpaceListArgs & PageArgs, query: object = {}) {
  const before = db.statements.count;
  const pages = await loadPages(source, ctx, parents, args, query);
  return { pages, statements: db.statements.count - before };
}

const pageOf = (page: ListPage<Space> | Error): ListPage<Space> => {
  if (page instanceof Error) throw page;
  return page;
};
const idsOf = (page: ListPage<Space> | Error) => pageOf(page).items.map((space) => space.id);

/** Every page of one parent's list, following next-page tokens from the first page; a walk that does not end fails. */
async function walkList(source: ListSource<Space, SpaceListArgs>, parent: string, args: SpaceListArgs & PageArgs) {
  const pages: ListPage<Space>[] = [];
  let token: string | undefined;
  do {
    if (pages.length === 100) throw new Error(`The walk of ${parent}'s list has not ended after 100 pages`);
    const [page] = (await load(source, [parent], { ...args, page: token })).pages;
    pages.push(pageOf(page));
    token = pageOf(page).next?.page;
  } while (token);
  return { ids: pages.flatMap((page) => page.items.map((space) => space.id)), pages };
}

describe('the pages of several parents', () => {
  it('come from one statement, in the order the parents were asked for, each with its count of listed rows', async () => {
    const { source } = spacesSource();
    const first = await organizationWith([3, 1, 2, 0, 4]);
    const second = await organizationWith([5, 5, 5]);
    // A deleted space is neither listed nor counted.
    await db.prisma.space.update({ where: { id: first.ids[4] }, data: { deletedAt: new Date() } });

    const { pages, statements } = await load(source, [second.organizationId, first.organizationId], { limit: 2 });
    expect(statements).toBe(1);
    expect(pages.map(idsOf)).toEqual([second.ids.slice(0, 2), first.ids.slice(0, 2)]);
    expect(pages.map((page) => pageOf(page).count)).toEqual([3, 4]);
    expect(pages.map((page) => typeof pageOf(page).next?.page)).toEqual(['string', 'string']);
  });

  it('give a parent without rows an empty page, a count of 0 and no next page, in the same statement', async () => {
    const { source } = spacesSource();
    const empty = (await buildOrganization(db.prisma)).organization.id;
    const full = await organizationWith([0, 1]);
    const { pages, statements } = await load(source, [empty, full.organizationId], { limit: 5 });
    expect(statements).toBe(1);
    expect(pages[0]).toEqual({ items: [], count: 0, next: undefined });
    expect(pages[1]).toMatchObject({ count: 2, next: undefined });
    expect(idsOf(pages[1])).toEqual(full.ids);
  });
});

describe('walking a list page by page', () => {
  // Positions that tie in threes and fours: only the id tells those spaces apart.
  const positions = [2, 1, 1, 1, 2, 0, 1, 2, 0.5];
  let organization: { organizationId: string; ids: string[] };
  beforeAll(async () => {
    organization = await organizationWith(positions);
  });

  it('reaches the end with every row once, in order, where the order column ties (the id breaks the ties)', async () => {
    const { source } = spacesSource();
    for (const limit of [1, 2, 3, 4, 9, 10]) {
      const walked = await walkList(source, organization.organizationId, { limit });
      expect(walked.ids, `limit ${limit}`).toEqual(organization.ids);
      expect(walked.pages, `limit ${limit}`).toHaveLength(Math.ceil(positions.length / limit));
      expect(new Set(walked.pages.map((page) => page.count)), `limit ${limit}`).toEqual(new Set([positions.length]));
    }
  });

  it('walks the order reversed when the source says so, ties reversed too', async () => {
    const { source } = spacesSource();
    for (const limit of [2, 4]) {
      const walked = await walkList(source, organization.organizationId, { limit, descending: true });
      expect(walked.ids, `limit ${limit}`).toEqual([...organization.ids].reverse());
    }
  });
});

describe('page tokens', () => {
  it('are refused under another parent than the one whose list issued them; the other parents are answered', async () => {
    const { source } = spacesSource();
    const first = await organizationWith([0, 1, 2, 3]);
    const second = await organizationWith([0, 1]);
    const [issued] = (await load(source, [first.organizationId], { limit: 2 })).pages;
    const token = pageOf(issued).next!.page;

    const { pages, statements } = await load(source, [second.organizationId, first.organizationId], { limit: 2, page: token });
    expect(statements).toBe(1);
    expect(pages[0]).toBeInstanceOf(Error);
    expect(pages[0]).toMatchObject({ status: 400, message: 'Invalid "page": this page token belongs to another list.' });
    expect(pages[1]).toMatchObject({ count: 4, next: undefined });
    expect(idsOf(pages[1])).toEqual(first.ids.slice(2));

    // Nor under the same parent with other arguments (another scope): and with no parent left, no statement at all.
    const reversed = await load(source, [first.organizationId], { limit: 2, page: token, descending: true });
    expect(reversed.statements).toBe(0);
    expect(reversed.pages[0]).toMatchObject({ status: 400, message: 'Invalid "page": this page token belongs to another list.' });
  });

  it('are refused for every parent when not issued by the API, or not of the list’s order', async () => {
    const { source } = spacesSource();
    const first = await organizationWith([0, 1, 2]);
    const second = await organizationWith([0]);
    const parents = [first.organizationId, second.organizationId];
    const [issued] = (await load(source, [first.organizationId], { limit: 1 })).pages;
    const token = pageOf(issued).next!.page;
    const tampered = oneCharacterOff(token);
    for (const page of ['garbage', '..', `${token}.extra`, tampered]) {
      const { pages } = await load(source, parents, { limit: 1, page });
      for (const answer of pages) {
        expect(answer, page).toMatchObject({ status: 400, message: 'Invalid "page": not a page token issued by this API.' });
      }
    }
    // Signed for the right list, but not values of its order: a text where the position goes, or too few values.
    const scope = source.scope(first.organizationId, {});
    for (const values of [['one', 'two'], [1], [1, 2, 3]]) {
      const { pages } = await load(source, [first.organizationId], { limit: 1, page: ctx.pageTokens.encode(scope, values) });
      expect(pages[0], JSON.stringify(values)).toMatchObject({ status: 400, message: 'Invalid "page": not a page token of this list.' });
    }
  });
});

describe('the page size', () => {
  let organization: { organizationId: string; ids: string[] };
  beforeAll(async () => {
    const { organization: created } = await buildOrganization(db.prisma);
    await buildSpaces(db.prisma, { organizationId: created.id, count: 51 });
    const spaces = await db.prisma.space.findMany({ where: { organizationId: created.id }, orderBy: { position: 'asc' } });
    organization = { organizationId: created.id, ids: spaces.map((space) => space.id) };
  });

  it('is 50 by default, anything from 0 (the count alone) to 1000 when given, and refused otherwise', async () => {
    const { source } = spacesSource();
    const parents = () => [organization.organizationId];
    for (const limit of [undefined, null]) {
      const [page] = (await load(source, parents(), { limit })).pages;
      expect(idsOf(page)).toEqual(organization.ids.slice(0, 50));
      expect(pageOf(page).next).toBeDefined();
    }
    const [countOnly] = (await load(source, parents(), { limit: 0 })).pages;
    expect(countOnly).toEqual({ items: [], count: 51, next: undefined });
    const [all] = (await load(source, parents(), { limit: 1000 })).pages;
    expect(idsOf(all)).toEqual(organization.ids);
    expect(pageOf(all).next).toBeUndefined();
    for (const limit of [-1, 1001, 2.5]) {
      await expect(load(source, parents(), { limit }), String(limit)).rejects.toMatchObject({
        status: 400,
        message: 'Invalid "limit": must be an integer from 0 to 1000.',
      });
    }
  });
});

describe('reading the rows', () => {
  let first: { organizationId: string; ids: string[] };
  let second: { organizationId: string; ids: string[] };
  beforeAll(async () => {
    first = await organizationWith([0, 1, 2]);
    second = await organizationWith([0, 1, 2]);
  });

  it('returns the rows whole from the page statement when the selection needs no relation, as Prisma reads them', async () => {
    const { source, fetched } = spacesSource();
    // Without the annotation, whose value rides on the row under a symbol, for the rows to compare with Prisma's.
    const { pages, statements } = await load({ ...source, annotations: [] }, [first.organizationId, second.organizationId], { limit: 2 });
    expect(statements).toBe(1);
    expect(fetched).toEqual([]);
    const prismaRows = (ids: string[]) =>
      db.prisma.space.findMany({ where: { id: { in: ids } }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
    expect(pageOf(pages[0]).items).toStrictEqual(await prismaRows(first.ids.slice(0, 2)));
    expect(pageOf(pages[1]).items).toStrictEqual(await prismaRows(second.ids.slice(0, 2)));
  });

  it('reads them through the source’s fetch when the selection needs relations: once for every parent, in page order', async () => {
    const { source, fetched } = spacesSource();
    const { pages } = await load(source, [first.organizationId, second.organizationId], { limit: 2 }, { include: { organization: true } });
    expect(pages.map(idsOf)).toEqual([first.ids.slice(0, 2), second.ids.slice(0, 2)]);
    // One fetch for both pages, of their rows only: not of the row that tells that a next page exists.
    expect(fetched).toHaveLength(1);
    expect([...fetched[0]].sort()).toEqual([...first.ids.slice(0, 2), ...second.ids.slice(0, 2)].sort());
    const withOrganization = pageOf(pages[0]).items as (Space & { organization?: { id: string } })[];
    expect(withOrganization.map((space) => space.organization?.id)).toEqual([first.organizationId, first.organizationId]);
  });

  it('returns the rows whole, with their computed values, from a source that fetches nothing, whatever the selection', async () => {
    const { fetch: _fetch, ...plain } = spacesSource().source;
    const withComputed: ListSource<Space & { doubled: number }, SpaceListArgs> = {
      ...plain,
      annotations: [],
      computed: () => ({ doubled: Prisma.sql`t.position * 2` }),
    };
    const before = db.statements.count;
    const [page] = await loadPages(withComputed, ctx, [first.organizationId], { limit: 3 }, { include: { organization: true } });
    expect(db.statements.count - before).toBe(1);
    if (page instanceof Error) throw page;
    expect(page.items.map((row) => [row.id, row.position, row.doubled])).toEqual(first.ids.map((id, i) => [id, i, 2 * i]));
  });
});

describe('annotations', () => {
  it('are computed once per load, for the rows of every parent’s page together, whole or fetched', async () => {
    const first = await organizationWith([0, 1, 2]);
    const second = await organizationWith([0, 1]);
    const parents = [first.organizationId, second.organizationId];
    for (const query of [{}, { include: { organization: true } }]) {
      const { source, annotated, titleLength } = spacesSource();
      const { pages } = await load(source, parents, { limit: 2 }, query);
      const items = pages.flatMap((page) => pageOf(page).items);
      // One batch for both pages, of their rows only: not of the row that tells that a next page exists.
      expect(annotated, JSON.stringify(query)).toHaveLength(1);
      expect([...annotated[0]].sort()).toEqual([...first.ids.slice(0, 2), ...second.ids].sort());
      // Annotated before the load returns: a field reads the value at once, without a promise or another batch.
      expect(items.map((space) => titleLength.of(ctx, space))).toEqual(items.map((space) => space.title.length));
      expect(annotated).toHaveLength(1);

      // The next page is another load, and another batch, of its own row.
      await load(source, [first.organizationId], { limit: 2, page: pageOf(pages[0]).next!.page }, query);
      expect(annotated.slice(1)).toEqual([[first.ids[2]]]);
    }
  });
});
