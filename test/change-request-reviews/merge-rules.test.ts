// Merge rules, enforced: each published rule refuses the merge (409 naming it) while unmet and lets it through once
// met, changing nothing when it refuses; a space's rules override its organization's unless it inherits them; the
// rules this service cannot enforce are refused when set; and while rules require reviews, an import into the space's
// content is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Prisma, Space } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { expectMatchesSpec } from '../support/openapi.js';

const { t, world } = useApi({ world: true });

const crPath = (space: Space, cr: string) => `/v1/spaces/${space.id}/change-requests/${cr}`;

/** A space of Acme under these rules, with a change request by `author` (the creator unless told) that adds a page. */
async function underRules(rules: Prisma.InputJsonObject[], author: Person = world.creator): Promise<{ space: Space; cr: string }> {
  const space = await buildSpace(t.prisma, { organizationId: world.organizationId, mergeRules: { type: 'rules', rules } });
  return { space, cr: await changeRequest(space, author) };
}
async function changeRequest(space: Space, author: Person = world.creator, subject = 'Edit'): Promise<string> {
  const created = await t.request('POST', `/v1/spaces/${space.id}/change-requests`, { token: author.token, body: { subject } });
  expect(created.status, created.text).toBe(201);
  await edit(space, created.body.id, author);
  return created.body.id;
}
async function edit(space: Space, cr: string, author: Person = world.creator) {
  const changes = [{ operation: 'insert_page', title: `Page ${newId()}`, document: { markdown: 'Text.\n' } }];
  const res = await t.request('POST', `${crPath(space, cr)}/content`, { token: author.token, body: { changes } });
  expect(res.status, res.text).toBe(200);
}
const review = async (space: Space, cr: string, person: Person, status = 'approved') => {
  const res = await t.request('POST', `${crPath(space, cr)}/reviews`, { token: person.token, body: { status } });
  expect(res.status, res.text).toBe(201);
};
const merge = (space: Space, cr: string, person: Person = world.admin) =>
  t.request('POST', `${crPath(space, cr)}/merge`, { token: person.token });

/** The merge is refused with this rule named, and merges once `meet` has run. */
async function refusedUntil(space: Space, cr: string, rule: string, meet: () => Promise<unknown>, merger: Person = world.admin) {
  const refused = await merge(space, cr, merger);
  expect(refused.status, refused.text).toBe(409);
  expect(refused.body.error.message).toMatch(new RegExp(`^Merge rule "${rule}": `));
  await meet();
  const merged = await merge(space, cr, merger);
  expect(merged.status, merged.text).toBe(200);
  expectMatchesSpec('0202', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/merge', 200, merged.body);
  expect(merged.body.result).toBe('merge');
}

describe('each merge rule', () => {
  it('require_at_least_one_review: any current review by someone other than the author', async () => {
    const { space, cr } = await underRules([{ rule: 'require_at_least_one_review' }]);
    await refusedUntil(space, cr, 'require_at_least_one_review', () => review(space, cr, world.reviewer, 'changes-requested'));
  });

  it('require_at_least_one_approved_review: an approval of the latest revision; an outdated one no longer counts', async () => {
    const { space, cr } = await underRules([{ rule: 'require_at_least_one_approved_review' }]);
    await review(space, cr, world.reviewer);
    await edit(space, cr);
    await refusedUntil(space, cr, 'require_at_least_one_approved_review', () => review(space, cr, world.reviewer));
  });

  it('require_at_least_one_approved_review: a reviewer’s newer "changes requested" takes back their approval', async () => {
    const { space, cr } = await underRules([{ rule: 'require_at_least_one_approved_review' }]);
    await review(space, cr, world.reviewer);
    await review(space, cr, world.reviewer, 'changes-requested');
    await refusedUntil(space, cr, 'require_at_least_one_approved_review', () => review(space, cr, world.admin));
  });

  it('require_all_reviews_approved: no current review asking for changes, and every requested reviewer approving', async () => {
    const { space, cr } = await underRules([{ rule: 'require_all_reviews_approved' }]);
    const unmet = async (problem: string) => {
      const res = await merge(space, cr);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(`Merge rule "require_all_reviews_approved": ${problem}`);
    };
    await unmet('the change request needs a review of its latest revision, and every review to approve it.');
    const asked = await t.request('POST', `${crPath(space, cr)}/requested-reviewers`, {
      token: world.creator.token,
      body: { users: [world.reviewer.userId, world.admin.userId] },
    });
    expect(asked.status, asked.text).toBe(200);
    await review(space, cr, world.reviewer);
    await unmet('every requested reviewer (or a member of each requested team) must approve its latest revision.');
    await review(space, cr, world.admin, 'changes-requested');
    await unmet('a current review of the change request asks for changes.');
    await refusedUntil(space, cr, 'require_all_reviews_approved', () => review(space, cr, world.admin));
  });

  it('require_specific_reviewers: each listed user approves the latest revision (the author is not asked)', async () => {
    const rule = { rule: 'require_specific_reviewers', users: [world.reviewer.userId, world.admin.userId, world.creator.userId] };
    const { space, cr } = await underRules([rule]);
    await review(space, cr, world.reviewer);
    const refused = await merge(space, cr);
    expect(refused.body.error.message).toBe(
      `Merge rule "require_specific_reviewers": each of these reviewers must approve its latest revision: ${world.admin.userId}.`,
    );
    await refusedUntil(space, cr, 'require_specific_reviewers', () => review(space, cr, world.admin));
  });

  it('require_one_of_specific_reviewers: one of the listed users approves', async () => {
    const { space, cr } = await underRules([
      { rule: 'require_one_of_specific_reviewers', users: [world.reviewer.userId, world.creator.userId] },
    ]);
    await review(space, cr, world.admin);
    await refusedUntil(space, cr, 'require_one_of_specific_reviewers', () => review(space, cr, world.reviewer));
  });

  it('allow_bypass: the listed users merge whatever the other rules say; the others do not', async () => {
    const { space, cr } = await underRules([
      { rule: 'require_at_least_one_approved_review' },
      { rule: 'allow_bypass', users: [world.admin.userId] },
    ]);
    const refused = await merge(space, cr, world.reviewer);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/^Merge rule "require_at_least_one_approved_review": /);
    expect((await merge(space, cr, world.admin)).body.result).toBe('merge');
  });

  it('require_up_to_date_change_request: the change request builds on the space’s current content', async () => {
    const { space, cr } = await underRules([{ rule: 'require_up_to_date_change_request' }]);
    const first = await changeRequest(space);
    expect((await merge(space, first)).body.result).toBe('merge');
    await refusedUntil(space, cr, 'require_up_to_date_change_request', async () => {
      const updated = await t.request('POST', `${crPath(space, cr)}/update`, { token: world.creator.token });
      expect(updated.body.result, updated.text).toBe('update');
    });
  });

  it('require_change_request_subject: a subject that is not blank', async () => {
    const space = await buildSpace(t.prisma, {
      organizationId: world.organizationId,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] },
    });
    const cr = await changeRequest(space, world.creator, '  ');
    await refusedUntil(space, cr, 'require_change_request_subject', () =>
      t.request('PATCH', crPath(space, cr), { token: world.creator.token, body: { subject: 'A subject' } }),
    );
  });

  it('require_change_request_description: a description with some text', async () => {
    const { space, cr } = await underRules([{ rule: 'require_change_request_description' }]);
    const paragraph = (text: string) => ({
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', nodes: text ? [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] : [] },
      ],
    });
    const describe = (text: string) =>
      t.request('PATCH', crPath(space, cr), { token: world.creator.token, body: { description: paragraph(text) } });
    expect((await describe('')).status).toBe(200);
    await refusedUntil(space, cr, 'require_change_request_description', () => describe('Why this change.'));
  });

  it('require_author_to_merge: only the author merges', async () => {
    const { space, cr } = await underRules([{ rule: 'require_author_to_merge' }]);
    const refused = await merge(space, cr, world.admin);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('Merge rule "require_author_to_merge": only the change request’s author may merge it.');
    expect((await merge(space, cr, world.creator)).body.result).toBe('merge');
  });
});

describe('the rules that apply', () => {
  beforeAll(async () => {
    const res = await t.request('PATCH', `/v1/orgs/${world.organizationId}`, {
      token: world.admin.token,
      body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] } },
    });
    expect(res.status, res.text).toBe(200);
  });

  it('are the organization’s for a space that inherits them, and the space’s own otherwise', async () => {
    const inheriting = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const inherited = await changeRequest(inheriting);
    expect((await merge(inheriting, inherited)).body.error.message).toMatch(/^Merge rule "require_at_least_one_approved_review": /);
    const own = await buildSpace(t.prisma, { organizationId: world.organizationId, mergeRules: { type: 'none' } });
    expect((await merge(own, await changeRequest(own))).body.result).toBe('merge');
    const stricter = await buildSpace(t.prisma, {
      organizationId: world.organizationId,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_author_to_merge' }] },
    });
    const cr = await changeRequest(stricter);
    expect((await merge(stricter, cr)).body.error.message).toMatch(/^Merge rule "require_author_to_merge": /);
    expect((await merge(stricter, cr, world.creator)).body.result).toBe('merge');
  });

  it('refuse a merge without changing anything: the space, the change request, the revisions', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const cr = await changeRequest(space);
    const before = {
      space: await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } }),
      changeRequest: await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr } }),
      revisions: await t.prisma.revision.count({ where: { spaceId: space.id } }),
      pages: await t.prisma.pageVersion.count({ where: { spaceId: space.id } }),
    };
    expect((await merge(space, cr)).status).toBe(409);
    expect({
      space: await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } }),
      changeRequest: await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr } }),
      revisions: await t.prisma.revision.count({ where: { spaceId: space.id } }),
      pages: await t.prisma.pageVersion.count({ where: { spaceId: space.id } }),
    }).toEqual(before);
    const content = await t.request('GET', `/v1/spaces/${space.id}/content/pages`, { token: world.admin.token });
    expect(content.body.pages).toEqual([]);
  });

  it('refuse an import into the space’s content while they require reviews, but not a standalone one', async () => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const body = { url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main' };
    const refused = await t.request('POST', `/v1/spaces/${space.id}/git/import`, { token: world.admin.token, body });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/^Merge rule "require_at_least_one_approved_review": the space's content changes only/);
    expect(await t.prisma.gitSyncOperation.count({ where: { spaceId: space.id } })).toBe(0);
    const standalone = await t.request('POST', `/v1/spaces/${space.id}/git/import`, {
      token: world.admin.token,
      body: { ...body, standalone: true },
    });
    expect(standalone.status).toBe(204);
    const free = await buildSpace(t.prisma, {
      organizationId: world.organizationId,
      mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] },
    });
    expect((await t.request('POST', `/v1/spaces/${free.id}/git/import`, { token: world.admin.token, body })).status).toBe(204);
  });
});

describe('rules this service cannot enforce', () => {
  it.each([
    ['require_agent_review', { rule: 'require_agent_review' }, 'this service has no AI reviewer'],
    ['custom', { rule: 'custom', expression: 'true' }, 'this service evaluates no custom expressions'],
  ])('refuses %s when set on a space or an organization (400 naming it), storing nothing', async (name, rule, why) => {
    const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const mergeRules = { type: 'rules', rules: [{ rule: 'require_change_request_subject' }, rule] };
    const message = `Invalid "mergeRules.rules.1.rule": "${name}" cannot be enforced: ${why}.`;
    const onSpace = await t.request('PATCH', `/v1/spaces/${space.id}`, { token: world.admin.token, body: { mergeRules } });
    expect(onSpace.status).toBe(400);
    expect(onSpace.body.error.message).toBe(message);
    const onOrganization = await t.request('PATCH', `/v1/orgs/${world.secondOrganizationId}`, {
      token: world.admin.token,
      body: { mergeRules },
    });
    expect(onOrganization.body.error.message).toBe(message);
    expect((await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } })).mergeRules).toEqual({ type: 'inherit' });
    expect((await t.prisma.organization.findUniqueOrThrow({ where: { id: world.secondOrganizationId } })).mergeRules).toEqual({
      type: 'none',
    });
  });
});
