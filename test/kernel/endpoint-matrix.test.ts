// The permission matrix at the REST surface: every endpoint of a space or a collection, called by every persona
// (owner and admin, create, edit, read, guest, a guest whose team was granted edit, another organization's admin, and
// the admin's tokens scoped to reading and to another organization), on
// an object of its own. Each answers as the object's `permissions` (as the persona reads them) say: success when the
// action the endpoint needs is advertised, 403 when it is not, 404 when the persona cannot see the object at all.
// A new content endpoint fails the first test until it is given its action here.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { restModules } from '../../src/schema.js';
import { file, page, publish } from '../revisions/content.js';
import { type Person, useApi } from '../support/app.js';
import { buildCollection, buildMember, buildSpace } from '../support/factories.js';

type Kind = 'space' | 'collection';

interface Endpoint {
  /** The action of the object's `permissions` that the endpoint needs. */
  action: 'view' | 'comment' | 'edit' | 'review' | 'merge' | 'admin' | 'triggerGitSync';
  /**
   * Besides: the organization-level action it needs (creating a copy), or, for content leaving its organization, the
   * admin role in it and a membership in the target.
   */
  also?: 'createContent' | 'sourceAndTargetAdmin' | 'listMembers';
  body?: (ctx: { grantee: string; team: string; target: string }) => unknown;
  /** A query string the endpoint requires (`query=...`). */
  query?: string;
  /** The object must be deleted first (restore). */
  deleted?: boolean;
  /** What the fresh object needs besides (a Git sync to read). */
  setup?: (id: string) => Promise<unknown>;
}

const endpoints: Record<string, Endpoint> = {
  'GET /v1/spaces/:spaceId': { action: 'view' },
  'PATCH /v1/spaces/:spaceId': { action: 'edit', body: () => ({ title: 'Renamed' }) },
  'DELETE /v1/spaces/:spaceId': { action: 'admin' },
  'POST /v1/spaces/:spaceId/duplicate': { action: 'view', also: 'createContent' },
  'POST /v1/spaces/:spaceId/restore': { action: 'admin', deleted: true },
  'POST /v1/spaces/:spaceId/move': { action: 'admin', body: () => ({ parent: null }) },
  'POST /v1/spaces/:spaceId/transfer': { action: 'admin', also: 'sourceAndTargetAdmin', body: ({ target }) => ({ organization: target }) },
  'GET /v1/collections/:collectionId': { action: 'view' },
  'PATCH /v1/collections/:collectionId': { action: 'admin', body: () => ({ title: 'Renamed' }) },
  'DELETE /v1/collections/:collectionId': { action: 'admin' },
  'POST /v1/collections/:collectionId/move': { action: 'admin', body: () => ({ parent: null }) },
  'POST /v1/collections/:collectionId/transfer': {
    action: 'admin',
    also: 'sourceAndTargetAdmin',
    body: ({ target }) => ({ organization: target }),
  },
  'GET /v1/collections/:collectionId/spaces': { action: 'view' },
  'GET /v1/spaces/:spaceId/content': { action: 'view' },
  'GET /v1/spaces/:spaceId/content/pages': { action: 'view' },
  'GET /v1/spaces/:spaceId/content/files': { action: 'view' },
  'GET /v1/spaces/:spaceId/content/files/:fileId': { action: 'view' },
  'GET /v1/spaces/:spaceId/content/page/:pageId': { action: 'view' },
  'GET /v1/spaces/:spaceId/content/path/:pagePath': { action: 'view' },
  'GET /v1/spaces/:spaceId/content/page/:pageId/meta-links': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/pages': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/files': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/files/:fileId': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/page/:pageId': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/document': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/path/:pagePath': { action: 'view' },
  'GET /v1/spaces/:spaceId/revisions/:revisionId/changes': { action: 'view' },
  'GET /v1/spaces/:spaceId/documents/:documentId': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests': { action: 'view' },
  'POST /v1/spaces/:spaceId/change-requests': { action: 'edit', body: () => ({ subject: 'Matrix' }) },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId': { action: 'view' },
  'PATCH /v1/spaces/:spaceId/change-requests/:changeRequestId': { action: 'edit', body: () => ({ subject: 'Renamed' }) },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content': {
    action: 'edit',
    body: () => ({ changes: [{ operation: 'insert_page', title: 'Matrix', document: {} }] }),
  },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/changes': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/contributors': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/commenters': { action: 'view', also: 'listMembers' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/pages': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/files': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/path/:pagePath': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/meta-links': { action: 'view' },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/merge': { action: 'merge' },
  // Change request 1 written by someone who is none of the personas: its author never reviews it.
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/reviews': {
    action: 'review',
    body: () => ({ status: 'approved' }),
    setup: (id) => t.prisma.changeRequest.updateMany({ where: { spaceId: id, number: 1 }, data: { createdById: world.reviewer.userId } }),
  },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/reviews': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/reviews/:reviewId': { action: 'view', setup: (id) => reviewed(id) },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers': { action: 'view' },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers': {
    action: 'edit',
    body: () => ({ users: [world.reviewer.userId] }),
  },
  // Nobody asked of the reader: 204.
  'DELETE /v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId': { action: 'edit' },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/update': { action: 'edit' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/pdf': { action: 'view' },
  'GET /v1/spaces/:spaceId/pdf': { action: 'view' },
  // The service's own API reference page, on loopback (this app allows private addresses for it): one page, no database.
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content/import': {
    action: 'edit',
    body: () => ({ source: 'website', url: `${t.url}/docs` }),
  },
  'GET /v1/spaces/:spaceId/search': { action: 'view', query: 'query=matrix' },
  'GET /v1/spaces/:spaceId/links': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links': { action: 'view' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks': { action: 'view' },
  'GET /v1/spaces/:spaceId/custom-fields': { action: 'view' },
  'GET /v1/spaces/:spaceId/integrations': { action: 'view' },
  'GET /v1/spaces/:spaceId/integration-blocks': { action: 'view' },
  'GET /v1/spaces/:spaceId/integration-scripts': { action: 'view' },
  'PATCH /v1/spaces/:spaceId/custom-fields': { action: 'edit', body: () => ({ values: {} }) },
  'GET /v1/spaces/:spaceId/comments': { action: 'view' },
  'GET /v1/spaces/:spaceId/commenters': { action: 'view', also: 'listMembers' },
  'POST /v1/spaces/:spaceId/comments': { action: 'comment', body: () => ({ body: { markdown: 'Matrix' } }) },
  'GET /v1/spaces/:spaceId/comments/:commentId': { action: 'view' },
  'PUT /v1/spaces/:spaceId/comments/:commentId': { action: 'comment', body: () => ({ resolved: true }) },
  'DELETE /v1/spaces/:spaceId/comments/:commentId': { action: 'admin' },
  'GET /v1/spaces/:spaceId/comments/:commentId/replies': { action: 'view' },
  'POST /v1/spaces/:spaceId/comments/:commentId/replies': { action: 'comment', body: () => ({ body: { markdown: 'Matrix' } }) },
  'GET /v1/spaces/:spaceId/comments/:commentId/replies/:commentReplyId': { action: 'view' },
  'PUT /v1/spaces/:spaceId/comments/:commentId/replies/:commentReplyId': { action: 'comment', body: () => ({ addedReactions: ['👍'] }) },
  'DELETE /v1/spaces/:spaceId/comments/:commentId/replies/:commentReplyId': { action: 'admin' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/comments': { action: 'view' },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/comments': {
    action: 'comment',
    body: () => ({ body: { markdown: 'Matrix' } }),
  },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId': { action: 'view' },
  'PUT /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId': { action: 'comment', body: () => ({ resolved: true }) },
  'DELETE /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId': { action: 'admin' },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies': { action: 'view' },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies': {
    action: 'comment',
    body: () => ({ body: { markdown: 'Matrix' } }),
  },
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId': { action: 'view' },
  'PUT /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId': {
    action: 'comment',
    body: () => ({ addedReactions: ['👍'] }),
  },
  'DELETE /v1/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId': { action: 'admin' },
  // No worker runs here: the operations are queued, and no Git server is reached.
  'POST /v1/spaces/:spaceId/git/import': {
    action: 'triggerGitSync',
    body: () => ({ url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main' }),
  },
  'POST /v1/spaces/:spaceId/git/export': {
    action: 'triggerGitSync',
    body: () => ({ url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main', commitMessage: 'Matrix' }),
  },
  'GET /v1/spaces/:spaceId/git/info': {
    action: 'view',
    setup: (id) => t.prisma.gitSync.create({ data: { spaceId: id, url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main' } }),
  },
};
for (const kind of ['spaces/:spaceId', 'collections/:collectionId']) {
  const base = `/v1/${kind}/permissions`;
  Object.assign(endpoints, {
    [`POST ${base}`]: { action: 'admin', body: ({ grantee }) => ({ role: 'read', users: [grantee] }) },
    [`GET ${base}/users`]: { action: 'view' },
    [`PATCH ${base}/users/:userId`]: { action: 'admin', body: () => ({ role: 'read' }) },
    [`DELETE ${base}/users/:userId`]: { action: 'admin' },
    [`GET ${base}/teams`]: { action: 'view', also: 'listMembers' },
    [`PATCH ${base}/teams/:teamId`]: { action: 'admin', body: () => ({ role: 'read' }) },
    [`DELETE ${base}/teams/:teamId`]: { action: 'admin' },
    [`GET ${base}/aggregate`]: { action: 'view', also: 'listMembers' },
  } satisfies Record<string, Endpoint>);
}

const contentRoutes = restModules
  .flatMap((module) => module.routes)
  .filter((route) => /^\/v1\/(spaces\/:spaceId|collections\/:collectionId)(\/|$)/.test(route.path));

const personas = ['admin', 'creator', 'editor', 'reader', 'guest', 'teamGranted', 'outsider', 'adminReadOnly', 'adminElsewhere'] as const;
type Persona = (typeof personas)[number];

// Private addresses allowed: the content import reads a page on loopback. No rate limit: the admin's token makes every
// persona's objects, several hundred requests a minute.
const { t, world } = useApi({ world: true, env: { ALLOW_PRIVATE_NETWORK: 'true', RATE_LIMIT_PER_MINUTE: '0' } });
let people: Record<Persona, Person>;
let grantedTeam: string;
/** A team and a member to name in grant endpoints. */
let team: string;

beforeAll(async () => {
  const organizationId = world.organizationId;
  const teamGranted = await buildMember(t.prisma, { organizationId, role: null });
  grantedTeam = (await t.prisma.team.create({ data: { id: newId(), organizationId, title: 'Granted' } })).id;
  await t.prisma.teamMember.create({ data: { teamId: grantedTeam, organizationId, userId: teamGranted.userId } });
  team = (await t.prisma.team.create({ data: { id: newId(), organizationId, title: 'Named' } })).id;
  const minted = async (body: Record<string, unknown>): Promise<Person> => {
    const res = await t.request('POST', '/v1/user/tokens', { token: world.admin.token, body: { label: 'Matrix', ...body } });
    expect(res.status, res.text).toBe(201);
    return { ...world.admin, token: res.body.token, tokenId: res.body.id };
  };
  const adminReadOnly = await minted({ access: 'read' });
  const adminElsewhere = await minted({ organizations: [world.secondOrganizationId] });
  people = { ...world, teamGranted, adminReadOnly, adminElsewhere };
});

/** A fresh object of the endpoint's kind (top level, default level inherit), with the persona's team granted edit. */
async function freshObject(kind: Kind, deleted: boolean): Promise<string> {
  const organizationId = world.organizationId;
  const id =
    kind === 'space'
      ? (await buildSpace(t.prisma, { organizationId, title: 'Matrix', deletedAt: deleted ? t.clock.now() : null })).id
      : (await buildCollection(t.prisma, { organizationId, title: 'Matrix' })).id;
  await t.prisma.contentGrant.create({ data: { id: newId(), organizationId, [`${kind}Id`]: id, teamId: grantedTeam, role: 'edit' } });
  // A page and a file, and change request 1, for the endpoints of content, of its revision and of a change request.
  if (kind === 'space' && !deleted) {
    await publish(t.prisma, id, { pages: [page('matrixPage', 'Matrix')], files: [file('matrixFile', 'matrix.png')] });
    expect((await t.request('POST', `/v1/spaces/${id}/change-requests`, { token: world.admin.token })).status).toBe(201);
    // A comment and a reply by the admin (`${id}C`, `${id}R`), for the endpoints of comments: on the space, and the
    // same ids with `CR` in change request 1, for those of a change request's comments.
    const changeRequestId = (await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId: id, number: 1 } })).id;
    for (const [suffix, scope] of [
      ['', null],
      ['CR', changeRequestId],
    ] as const) {
      const comment = `${id}C${suffix}`;
      const data = { id: comment, spaceId: id, changeRequestId: scope, postedById: world.admin.userId, body: { markdown: 'Matrix' } };
      await t.prisma.comment.create({ data });
      await t.prisma.commentReply.create({
        data: { id: `${id}R${suffix}`, commentId: comment, postedById: world.admin.userId, body: { markdown: 'Re' } },
      });
    }
  }
  return id;
}

/** Change request 1 of the space reviewed by the reviewer: review `${spaceId}V`. */
async function reviewed(spaceId: string) {
  const changeRequest = await t.prisma.changeRequest.findFirstOrThrow({ where: { spaceId, number: 1 } });
  const now = t.clock.now();
  await t.prisma.changeRequestReview.create({
    data: {
      id: `${spaceId}V`,
      changeRequestId: changeRequest.id,
      reviewerId: world.reviewer.userId,
      revisionId: changeRequest.revisionId,
      status: 'approved',
      createdAt: now,
      updatedAt: now,
    },
  });
}

/** The path with the ids of the space's content filled in: its current revision, and the matrix page's document. */
async function withContentIds(path: string, spaceId: string): Promise<string> {
  if (!path.includes(':revisionId') && !path.includes(':documentId')) return path;
  const { revisionId } = await t.prisma.space.findUniqueOrThrow({ where: { id: spaceId } });
  const document = await t.prisma.pageVersion.findFirstOrThrow({ where: { spaceId, pageId: 'matrixPage' } });
  return path.replace(':revisionId', revisionId!).replace(':documentId', document.id);
}

/** The `permissions` the persona reads on the object, or null when it is not found for them. */
async function advertised(kind: Kind, id: string, person: Person): Promise<Record<string, boolean> | null> {
  const res = await t.request('GET', `/v1/${kind}s/${id}`, { token: person.token });
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  return res.body.permissions;
}

describe('the permission matrix of content endpoints', () => {
  it('knows the action of every endpoint of a space or a collection', () => {
    expect(contentRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(Object.keys(endpoints).sort());
  });

  it.each(contentRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', async (key, route) => {
    const endpoint = endpoints[key];
    const kind: Kind = route.path.startsWith('/v1/spaces/') ? 'space' : 'collection';
    const outcomes: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const persona of personas) {
      const person = people[persona];
      const id = await freshObject(kind, endpoint.deleted ?? false);
      await endpoint.setup?.(id);
      const permissions = await advertised(kind, id, person);
      const inChangeRequest = route.path.includes('/change-requests/:changeRequestId/comments');
      const path = (await withContentIds(route.path, id))
        .replace(/:spaceId|:collectionId/, id)
        .replace(':userId', world.reader.userId)
        .replace(':teamId', team)
        .replace(':changeRequestId', '1')
        .replace(':pageId', 'matrixPage')
        .replace(':fileId', 'matrixFile')
        .replace(':pagePath', 'matrix')
        .replace(':reviewId', `${id}V`)
        .replace(':commentReplyId', `${id}R${inChangeRequest ? 'CR' : ''}`)
        .replace(':commentId', `${id}C${inChangeRequest ? 'CR' : ''}`);
      const body = endpoint.body?.({ grantee: world.reader.userId, team, target: world.secondOrganizationId });
      const res = await t.request(route.method, endpoint.query ? `${path}?${endpoint.query}` : path, { token: person.token, body });
      outcomes[persona] = res.status;
      // Creating a copy also needs `create` in the organization. A transfer needs the admin role in the object's
      // organization, checked before the target (where only the admin is a member): whoever sees the object without
      // that role is refused (403), whatever their level on the object. Who else can reach the content, who commented
      // there, and the teams granted, are the organization's people: for its members with a role, not for a guest
      // granted the content.
      const alsoAllowed =
        endpoint.also === 'createContent'
          ? ['admin', 'creator'].includes(persona)
          : endpoint.also === 'sourceAndTargetAdmin'
            ? persona === 'admin'
            : endpoint.also === 'listMembers'
              ? persona !== 'teamGranted'
              : true;
      expected[persona] = !permissions ? 404 : !permissions[endpoint.action] || !alsoAllowed ? 403 : route.status;
    }
    expect(outcomes).toEqual(expected);
    // Against an agreement on a wrong answer: the organization's admin always succeeds, and those outside never see it.
    expect(outcomes.admin).toBe(route.status);
    expect([outcomes.guest, outcomes.outsider, outcomes.adminElsewhere]).toEqual([404, 404, 404]);
    // The admin's read-only token reads what the admin reads, and changes nothing.
    expect(outcomes.adminReadOnly).toBe(route.method === 'GET' ? route.status : 403);
    // The team-granted guest edits: what needs only view or edit is theirs.
    if ((endpoint.action === 'view' || endpoint.action === 'edit') && !endpoint.also) expect(outcomes.teamGranted).toBe(route.status);
    // The creator administers the object but is no admin of its organization: it stays there.
    if (endpoint.also === 'sourceAndTargetAdmin') expect(outcomes.creator).toBe(403);
    // The team-granted guest sees the content but not the organization's people.
    if (endpoint.also === 'listMembers') expect(outcomes.teamGranted).toBe(403);
  });
});
