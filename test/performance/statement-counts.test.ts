// N+1 guard: the SQL statements a request runs must not grow with the number of items it returns, at any depth.
// Each test runs the same request over a tiny data set and over one with 100 items per level, and compares counts.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Person, useApi } from '../support/app.js';
import {
  buildCollection,
  buildCollections,
  buildMember,
  buildOrganization,
  buildSpace,
  buildSpaces,
  buildUser,
} from '../support/factories.js';

// 100 × 100 × 100 costs about 17 million, past the default GRAPHQL_MAX_COST: this file measures statements, not cost.
const { t } = useApi({ env: { GRAPHQL_MAX_COST: '100000000' } });
let big: Person; // admin of 100 organizations; the first holds 100 collections of 100 spaces each
let small: Person; // admin of one organization with one collection holding one space
let reader: Person; // reader in the big organization (lists filtered by visibility)
let bigOrg: string;
let bigCollection: string;
let smallOrg: string;
let smallCollection: string;

beforeAll(async () => {
  [big, small] = await Promise.all([buildUser(t.prisma, { displayName: 'Big' }), buildUser(t.prisma, { displayName: 'Small' })]);
  bigOrg = (await buildOrganization(t.prisma, { title: 'Big', owner: big })).organization.id;
  const bigCollections = await buildCollections(t.prisma, { organizationId: bigOrg, count: 100 });
  bigCollection = bigCollections[0];
  for (const parentId of bigCollections) await buildSpaces(t.prisma, { organizationId: bigOrg, parentId, count: 100 });
  for (let i = 1; i < 100; i++) await buildOrganizationWithOneSpace(`Org ${i}`, big);
  reader = await buildMember(t.prisma, { organizationId: bigOrg, role: 'read' });
  ({ organizationId: smallOrg, collectionId: smallCollection } = await buildOrganizationWithOneSpace('Small', small));
}, 120_000);

/** An organization holding one collection that holds one space. */
async function buildOrganizationWithOneSpace(title: string, owner: Person) {
  const organizationId = (await buildOrganization(t.prisma, { title, owner })).organization.id;
  const collectionId = (await buildCollection(t.prisma, { organizationId })).id;
  await buildSpace(t.prisma, { organizationId, parentId: collectionId });
  return { organizationId, collectionId };
}

const spaceFields =
  'id title visibility revisionId defaultLevel openCommentCount changeRequestCount openChangeRequestCount draftChangeRequestCount urls { location } permissions { view edit admin }';

describe('REST lists run the same statements for 1 item and for 100 or 1000', () => {
  it.each([
    ['GET /v1/orgs', () => '/v1/orgs?limit=100', () => '/v1/orgs?limit=100', 100],
    ['GET /v1/orgs/{id}/spaces', () => `/v1/orgs/${bigOrg}/spaces?limit=1000`, () => `/v1/orgs/${smallOrg}/spaces?limit=1000`, 1000],
    [
      'GET /v1/orgs/{id}/collections',
      () => `/v1/orgs/${bigOrg}/collections?limit=1000`,
      () => `/v1/orgs/${smallOrg}/collections?limit=1000`,
      100,
    ],
    [
      'GET /v1/collections/{id}/spaces',
      () => `/v1/collections/${bigCollection}/spaces?limit=1000`,
      () => `/v1/collections/${smallCollection}/spaces?limit=1000`,
      100,
    ],
  ])('%s', async (_name, bigPath, smallPath, expectedItems) => {
    const many = await t.counted('GET', bigPath(), { token: big.token });
    const one = await t.counted('GET', smallPath(), { token: small.token });
    expect(many.status).toBe(200);
    expect(many.body.items).toHaveLength(expectedItems);
    expect(one.body.items).toHaveLength(1);
    expect(many.statements).toBe(one.statements);
  });

  it('filters by visibility in the same statements for a reader, and one more for the parents it may name', async () => {
    const admin = await t.counted('GET', `/v1/orgs/${bigOrg}/spaces?limit=100`, { token: big.token });
    const readerView = await t.counted('GET', `/v1/orgs/${bigOrg}/spaces?limit=100`, { token: reader.token });
    const readerFew = await t.counted('GET', `/v1/orgs/${bigOrg}/spaces?limit=2`, { token: reader.token });
    expect(readerView.body.items).toHaveLength(100);
    expect(readerView.body.count).toBe(admin.body.count);
    // An admin sees every collection; a reader's page reads the collections it names as parents, in one statement.
    expect(readerView.statements).toBe(admin.statements + 1);
    expect(readerFew.statements).toBe(readerView.statements);
  });
});

describe('GraphQL nested three levels deep, 100 items per level', () => {
  const query = `{ organizations(limit: 100) { count items { id title permissions { admin }
      collections(limit: 100) { count items { id title permissions { create }
        spaces(limit: 100) { count next { page } items { ${spaceFields} } } } } } } }`;

  it('organizations -> collections -> spaces: 100 x 100 x 100 runs as many statements as 1 x 1 x 1', async () => {
    const many = await t.counted('POST', '/graphql', { token: big.token, body: { query } });
    const one = await t.counted('POST', '/graphql', { token: small.token, body: { query } });
    expect(many.body.errors).toBeUndefined();
    const orgs = many.body.data.organizations.items;
    expect(orgs).toHaveLength(100);
    const bigOne = orgs.find((o: { id: string }) => o.id === bigOrg);
    expect(bigOne.collections.items).toHaveLength(100);
    expect(bigOne.collections.items.every((c: { spaces: { items: unknown[] } }) => c.spaces.items.length === 100)).toBe(true);
    expect(one.body.data.organizations.items).toHaveLength(1);
    expect(many.statements).toBe(one.statements);
    // auth, memberships, then one statement per list level (pages with their totals and rows), and the space counters
    expect(many.statements).toBe(6);
  });

  it('a selection with relations (read through Prisma) stays flat too', async () => {
    const query = `query ($id: ID!) { organization(id: $id) { spaces(limit: 100) { items { id organization { id title } } } } }`;
    const many = await t.counted('POST', '/graphql', { token: big.token, body: { query, variables: { id: bigOrg } } });
    const one = await t.counted('POST', '/graphql', { token: small.token, body: { query, variables: { id: smallOrg } } });
    expect(many.body.errors).toBeUndefined();
    const spaces = many.body.data.organization.spaces.items;
    expect(spaces).toHaveLength(100);
    expect(spaces.every((s: { organization: { id: string } }) => s.organization.id === bigOrg)).toBe(true);
    expect(many.statements).toBe(one.statements);
  });

  it('organization(id) -> spaces -> fields, and collection(id) -> spaces, stay flat too', async () => {
    const byOrg = `query ($id: ID!) { organization(id: $id) { spaces(limit: 100) { items { ${spaceFields} } } } }`;
    const many = await t.counted('POST', '/graphql', { token: big.token, body: { query: byOrg, variables: { id: bigOrg } } });
    const one = await t.counted('POST', '/graphql', { token: small.token, body: { query: byOrg, variables: { id: smallOrg } } });
    expect(many.body.data.organization.spaces.items).toHaveLength(100);
    expect(many.statements).toBe(one.statements);
  });
});
