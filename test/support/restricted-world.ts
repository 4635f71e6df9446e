// A world of restricted objects for the access tests: an organization whose admin made, through the API, spaces and
// collections some members may not see (restricted, or granted to one guest), with content, change requests,
// comments, import runs, a site publishing the open and the restricted spaces, and the organization's own secrets (share
// link, SAML provider, webhook, invite link, installation, job, an admin's API token). Titles and bodies of what is restricted carry LEAK words, so that a test
// can look for them in any answer.
import { newId } from '../../src/kernel/ids.js';
import { refreshEffectiveLevels } from '../../src/kernel/permissions.js';
import { manifest } from '../integrations/fixtures.js';
import type { TestApp } from './app.js';
import { buildMember, buildUser } from './factories.js';
import { buildWorld } from './world.js';

export async function buildRestrictedWorld(t: TestApp) {
  const ok = async <T = any>(method: string, path: string, body?: unknown, token = world.admin.token): Promise<T> => {
    const res = await t.request(method, path, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body as T;
  };
  const world = await buildWorld(t.prisma);
  const org = world.organizationId;
  const base = `/v1/orgs/${org}`;

  // A guest granted one space; an admin of Acme and of Second whose SSO token acts in Second only.
  const guest = await buildMember(t.prisma, { organizationId: org, role: null });
  const scoped = await buildUser(t.prisma, { displayName: 'Scoped' });
  await t.prisma.member.createMany({
    data: [
      { organizationId: org, userId: scoped.userId, role: 'admin' },
      { organizationId: world.secondOrganizationId, userId: scoped.userId, role: 'admin' },
    ],
  });
  await t.prisma.apiToken.update({ where: { id: scoped.tokenId }, data: { organizationId: world.secondOrganizationId } });

  const space = async (title: string, parent?: string) =>
    (await ok('POST', `${base}/spaces`, { title, ...(parent && { parent }) })).id as string;
  const collection = async (title: string) => (await ok('POST', `${base}/collections`, { title })).id as string;
  const restrict = async (table: 'space' | 'collection', id: string) => {
    await (t.prisma[table] as any).update({ where: { id }, data: { defaultLevel: null } });
    await refreshEffectiveLevels(t.prisma, org);
  };

  const openCollection = await collection('Open collection');
  const secretCollection = await collection('LEAKcollection');
  const openSpace = await space('Open space', openCollection);
  const secretSpace = await space('LEAKspace');
  const secretInCollection = await space('LEAKnested', secretCollection);
  const grantedSpace = await space('Granted space');
  await restrict('space', secretSpace);
  await restrict('collection', secretCollection);
  await restrict('space', grantedSpace);
  await ok('POST', `/v1/spaces/${grantedSpace}/permissions`, { role: 'read', users: [guest.userId] });

  // Content, a change request, comments and a reply in the secret space, words in every title and body.
  const secretPages = { changes: [{ operation: 'insert_page', title: 'LEAKpage', document: { markdown: 'LEAKbody' } }] };
  const openPages = { changes: [{ operation: 'insert_page', title: 'Open page', document: { markdown: 'open body' } }] };
  const contentOf = async (spaceId: string, changes: unknown) => {
    const cr = await ok('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: spaceId === secretSpace ? 'LEAKcr' : 'Open cr' });
    await ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, changes);
    await ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    const open = await ok('POST', `/v1/spaces/${spaceId}/change-requests`, {
      subject: spaceId === secretSpace ? 'LEAKopencr' : 'Open cr 2',
    });
    return [cr.id as string, open.id as string];
  };
  const secretChangeRequests = await contentOf(secretSpace, secretPages);
  const openChangeRequests = await contentOf(openSpace, openPages);
  const comment = async (spaceId: string, word: string, changeRequest?: string) => {
    const path = changeRequest ? `/v1/spaces/${spaceId}/change-requests/${changeRequest}/comments` : `/v1/spaces/${spaceId}/comments`;
    const posted = await ok('POST', path, { body: { markdown: `${word} @${world.reader.userId}` } });
    const reply = await ok('POST', `${path}/${posted.id}/replies`, { body: { markdown: `${word}reply` } });
    return [posted.id as string, reply.id as string];
  };
  const secretComments = [
    ...(await comment(secretSpace, 'LEAKcomment')),
    ...(await comment(secretSpace, 'LEAKcrcomment', secretChangeRequests[1])),
  ];
  const openComments = await comment(openSpace, 'Open comment');
  // A review (with its comment) of each open change request, by the reviewer, and the organization's team asked for one.
  const reviewOf = async (changeRequestId: string, word: string) => {
    const changeRequest = await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: changeRequestId } });
    const [id, now] = [newId(), new Date()];
    const base = { changeRequestId, revisionId: changeRequest.revisionId, createdAt: now };
    await t.prisma.changeRequestReview.create({
      data: { ...base, id, reviewerId: world.reviewer.userId, status: 'changes_requested', updatedAt: now },
    });
    await t.prisma.comment.create({
      data: {
        id: newId(),
        spaceId: changeRequest.spaceId,
        changeRequestId,
        reviewId: id,
        postedById: world.reviewer.userId,
        body: { markdown: word },
      },
    });
    await t.prisma.changeRequestRequestedReviewer.create({
      data: { ...base, id: newId(), teamId: team, requestedById: world.admin.userId },
    });
    return id;
  };

  // A site publishing the open and the secret space, in a section; its share link, redirect and visitor key.
  const site = (await ok('POST', `${base}/sites`, { title: 'Docs site' })).id as string;
  const sitePath = `${base}/sites/${site}`;
  const openSiteSpace = (await ok('POST', `${sitePath}/site-spaces`, { spaceId: openSpace })).id as string;
  const secretSiteSpace = (await ok('POST', `${sitePath}/site-spaces`, { spaceId: secretSpace })).id as string;
  const section = (await ok('POST', `${sitePath}/sections`, { title: 'Guides', spaceId: secretInCollection })).id as string;
  const sectionSiteSpace = (await t.prisma.siteSpace.findFirstOrThrow({ where: { sectionId: section, spaceId: secretInCollection } })).id;
  const shareLink = (await ok('POST', `${sitePath}/share-links`, { name: 'LEAKsharelink' })).id as string;
  const redirect = (
    await ok('POST', `${sitePath}/redirects`, { source: '/old', destination: { kind: 'site-section', siteSectionId: section } })
  ).id as string;
  await ok('GET', `${sitePath}/publishing/auth`);

  // The organization's own: a team, a custom field, an OpenAPI spec, a SAML provider, a webhook, an invite link, an integration.
  const team = (await ok('PUT', `${base}/teams`, { title: 'LEAKteam', members: [world.admin.userId] })).id as string;
  const secretReviews = [await reviewOf(secretChangeRequests[1], 'LEAKreview')];
  const openReviews = [await reviewOf(openChangeRequests[1], 'Open review')];
  await ok('POST', `${base}/custom-fields`, { name: 'leakfield', type: 'text', title: 'LEAKfield' });
  const field = (await t.prisma.customField.findFirstOrThrow({ where: { organizationId: org, name: 'leakfield' } })).id;
  await ok('PATCH', `/v1/spaces/${secretSpace}/custom-fields`, { values: { leakfield: { value: 'LEAKvalue' } } });
  const spec = (
    await ok('POST', `${base}/openapi`, {
      slug: 'leak-spec',
      source: { text: '{"openapi":"3.1.0","info":{"title":"LEAKapi","version":"1"},"paths":{}}' },
    })
  ).id as string;
  // A version of the spec, and a job the admin started in Acme, as processing and a link check would write them.
  const version = newId();
  await t.prisma.openAPISpecVersion.create({
    data: { id: version, specId: spec, filesystem: { 'spec.json': { info: { title: 'LEAKapi' } } } },
  });
  await t.prisma.openAPISpec.update({ where: { id: spec }, data: { lastVersionId: version } });
  const job = newId();
  await t.prisma.backgroundJob.create({
    data: { id: job, kind: 'LEAKjob', organizationId: org, createdById: world.admin.userId, payload: {}, maxAttempts: 1 },
  });
  // An import run into each of the secret and the open space (their open change requests), waiting for a worker.
  const importRun = async (space: string, changeRequest: string, url: string) =>
    (
      await ok('POST', `/v1/org/${org}/imports`, {
        source: { type: 'website', url },
        target: { space, changeRequest },
      })
    ).id as string;
  const secretImportRun = await importRun(secretSpace, secretChangeRequests[1], 'https://leak.example/LEAKimport');
  const openImportRun = await importRun(openSpace, openChangeRequests[1], 'https://open.example/docs');
  const saml = (await ok('POST', `${base}/saml`, { label: 'LEAKsaml' })).id as string;
  const webhook = (
    await ok('POST', `${base}/webhooks`, { url: 'https://leak.example/LEAKwebhook', events: ['*'], description: 'LEAKwebhook' })
  ).id as string;
  const invite = (await ok('POST', `${base}/link-invites`, { role: 'read' })).id as string;
  // The admin's token that acts in this organization alone; a reader's token that sees the open space alone.
  const apiToken = (await ok('POST', '/v1/user/tokens', { label: 'LEAKtoken', organizations: [org] })).id as string;
  const openSpaceReader = (await ok('POST', '/v1/user/tokens', { label: 'Open space only', spaces: [openSpace] }, world.reader.token))
    .token as string;
  const integrationName = 'leak-integration';
  await ok('POST', `/v1/integrations/${integrationName}`, manifest(org, { title: 'Published', visibility: 'public' }));
  const installation = (await ok('POST', `/v1/integrations/${integrationName}/installations`, { organization: org })).id as string;
  await t.prisma.organization.update({ where: { id: org }, data: { emailDomains: ['leakdomain.example'] } });

  const pages = await t.prisma.pageVersion.findMany({
    where: { spaceId: { in: [secretSpace, openSpace] } },
    select: { pageId: true, spaceId: true },
  });
  return {
    world,
    /** A guest granted read on `grantedSpace` alone. */
    guest,
    /** An admin of the organization and of Second, whose token acts in Second only (as an SSO session's does). */
    scoped,
    org,
    openCollection,
    secretCollection,
    openSpace,
    secretSpace,
    secretInCollection,
    grantedSpace,
    secretChangeRequests,
    openChangeRequests,
    secretComments,
    openComments,
    /** Reviews of the secret and the open space's open change requests, each asking the team for a review too. */
    secretReviews,
    openReviews,
    site,
    openSiteSpace,
    secretSiteSpace,
    section,
    sectionSiteSpace,
    shareLink,
    redirect,
    team,
    field,
    spec,
    version,
    job,
    secretImportRun,
    openImportRun,
    saml,
    webhook,
    invite,
    apiToken,
    /** A reader's token scoped to the open space. */
    openSpaceReader,
    integrationName,
    installation,
    secretPageIds: [...new Set(pages.filter((row) => row.spaceId === secretSpace).map((row) => row.pageId))],
    pageIds: [...new Set(pages.map((row) => row.pageId))],
  };
}

export type RestrictedWorld = Awaited<ReturnType<typeof buildRestrictedWorld>>;
