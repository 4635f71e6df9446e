// Reviews of change requests and the reviews asked for, through GitBook's client and the published spec: who may
// review (review and up, never the author), what a review holds (its revision, its comment as a comment of the change
// request, who asked for it), when it becomes outdated, who may be asked, and the change-request list of what a user
// is asked to review. Across organizations and roles: 401, 403, 404.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Space } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi } from '../support/app.js';
import { buildMember, buildSpace } from '../support/factories.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let space: Space;

const REVIEWS = '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews';
const REQUESTED = '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers';
const api = (person: Person) => gitbookClient('0202', t.url, person.token);
const crPath = (cr: string, spaceId = space.id) => `/v1/spaces/${spaceId}/change-requests/${cr}`;

/** A change request of the space by `author` (the editor unless told), with a page of its own. */
async function changeRequestBy(author: Person = world.editor, spaceId = space.id): Promise<string> {
  const created = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: author.token, body: { subject: 'Edit' } });
  expect(created.status, created.text).toBe(201);
  await edit(created.body.id, 'First', author, spaceId);
  return created.body.id;
}
async function edit(cr: string, title: string, author: Person = world.editor, spaceId = space.id) {
  const changes = [{ operation: 'insert_page', title, document: { markdown: `${title}.\n` } }];
  const res = await t.request('POST', `${crPath(cr, spaceId)}/content`, { token: author.token, body: { changes } });
  expect(res.status, res.text).toBe(200);
}
const review = (cr: string, person: Person, body: unknown = { status: 'approved' }, spaceId = space.id) =>
  t.request('POST', `${crPath(cr, spaceId)}/reviews`, { token: person.token, body });

beforeAll(async () => {
  space = await buildSpace(t.prisma, { organizationId: world.organizationId });
});

describe('submitting a review', () => {
  it('approves the current revision through the official client, with a comment kept as a comment of the change request', async () => {
    const cr = await changeRequestBy();
    const { revisionId } = await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr } });
    const submitted = await api(world.reviewer).spaces.submitChangeRequestReview(space.id, cr, {
      // The client types the status as its enum, which it does not export.
      status: 'approved' as never,
      comment: { markdown: `Looks good, @${world.creator.userId}.` },
    });
    expect(submitted.status).toBe(201);
    expectMatchesSpec('0202', 'post', REVIEWS, 201, submitted.data);
    const location = `${t.url}${crPath(cr)}/reviews/${submitted.data.id}`;
    expect(submitted.headers.get('location')).toBe(location);
    expect(submitted.data).toMatchObject({
      object: 'change-request-review',
      revision: revisionId,
      reviewer: { id: world.reviewer.userId },
      status: 'approved',
      outdated: false,
      comment: {
        object: 'comment',
        postedBy: { id: world.reviewer.userId },
        body: { markdown: `Looks good, @${world.creator.userId}.` },
        target: { space: space.id, changeRequest: cr, review: submitted.data.id, revision: revisionId },
      },
      urls: { location },
    });
    expect(submitted.data.requestedBy).toBeUndefined();
    // The review and its comment are recorded together, by the reviewer.
    const recorded = await t.prisma.auditEvent.findMany({
      where: {
        action: { in: ['change_request_review_submitted', 'comment_created'] },
        OR: [{ targetId: cr }, { targetId: submitted.data.comment?.id }],
      },
      orderBy: { action: 'asc' },
    });
    expect(recorded).toMatchObject([
      {
        action: 'change_request_review_submitted',
        actorId: world.reviewer.userId,
        targetType: 'change-request',
        spaceId: space.id,
        payload: { reviewId: submitted.data.id, status: 'approved' },
      },
      { action: 'comment_created', actorId: world.reviewer.userId, targetType: 'comment', payload: { changeRequestId: cr } },
    ]);

    const { data: one } = await api(world.reader).spaces.getChangeRequestReviewById(space.id, cr, submitted.data.id, {
      format: 'document',
    });
    expectMatchesSpec('0202', 'get', `${REVIEWS}/{reviewId}`, 200, one);
    expect(one.comment?.body).toMatchObject({ document: { object: 'document' } });
    const { data: list } = await api(world.reader).spaces.getReviewsByChangeRequestId(space.id, cr);
    expectMatchesSpec('0202', 'get', REVIEWS, 200, list);
    expect(list).toMatchObject({ count: 1, items: [{ id: submitted.data.id, comment: { body: { markdown: expect.any(String) } } }] });

    // The comment is one of the change request's, and mentions whom it names.
    const comments = await t.request('GET', `${crPath(cr)}/comments`, { token: world.reader.token });
    expect(comments.body.items).toEqual([expect.objectContaining({ target: expect.objectContaining({ review: submitted.data.id }) })]);
    expect(await t.prisma.commentMention.count({ where: { userId: world.creator.userId } })).toBe(1);
  });

  it('takes "changes-requested", and an empty document as no comment; refuses any other status', async () => {
    const cr = await changeRequestBy();
    const res = await review(cr, world.creator, { status: 'changes-requested', comment: {} });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'changes-requested' });
    expect(res.body.comment).toBeUndefined();
    const bad = await review(cr, world.creator, { status: 'rejected' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('"status"');
  });

  it('becomes outdated when the change request’s revision moves on, or when its reviewer reviews again', async () => {
    const cr = await changeRequestBy();
    const first = (await review(cr, world.reviewer, { status: 'changes-requested' })).body;
    const other = (await review(cr, world.creator)).body;
    await edit(cr, 'Second');
    const second = (await review(cr, world.reviewer)).body;
    const again = (await review(cr, world.reviewer)).body;
    const outdated = await api(world.reader).spaces.getReviewsByChangeRequestId(space.id, cr, { outdated: true });
    expectMatchesSpec('0202', 'get', REVIEWS, 200, outdated.data);
    expect(outdated.data.items.map((item) => item.id)).toEqual([first.id, other.id, second.id]);
    const current = await t.request('GET', `${crPath(cr)}/reviews?outdated=false`, { token: world.reader.token });
    expect(current.body).toMatchObject({ count: 1, items: [{ id: again.id, outdated: false }] });
    const all = await t.request('GET', `${crPath(cr)}/reviews?limit=2`, { token: world.reader.token });
    expect(all.body.count).toBe(4);
    expect(all.body.next.page).toEqual(expect.any(String));
    expect((await t.request('GET', `${crPath(cr)}/reviews/${first.id}`, { token: world.reader.token })).body.outdated).toBe(true);
  });

  it('is for review and up, never the author; 401 without a token, 404 outside the organization', async () => {
    const cr = await changeRequestBy(world.creator);
    const own = await review(cr, world.creator);
    expect(own.status).toBe(403);
    expect(own.body.error.message).toBe('The author of a change request cannot review it.');
    for (const person of [world.editor, world.commenter, world.reader]) expect((await review(cr, person)).status).toBe(403);
    for (const person of [world.guest, world.outsider]) expect((await review(cr, person)).status).toBe(404);
    expect((await t.request('POST', `${crPath(cr)}/reviews`, { body: { status: 'approved' } })).status).toBe(401);
    expect(await t.prisma.auditEvent.count({ where: { targetId: cr, action: 'change_request_review_submitted' } })).toBe(0);
    expect((await review(cr, world.admin)).status).toBe(201);
    expect((await review(cr, world.reviewer)).status).toBe(201);
    // Reads: whoever sees the change request; nobody else learns it exists.
    expect((await t.request('GET', `${crPath(cr)}/reviews`, { token: world.reader.token })).body.count).toBe(2);
    for (const person of [world.guest, world.outsider]) {
      expect((await t.request('GET', `${crPath(cr)}/reviews`, { token: person.token })).status).toBe(404);
    }
    expect((await t.request('GET', `${crPath(cr)}/reviews`)).status).toBe(401);
  });

  it('answers 404 for a review of another change request, or of none', async () => {
    const [a, b] = [await changeRequestBy(), await changeRequestBy()];
    const submitted = (await review(a, world.reviewer)).body;
    expect((await t.request('GET', `${crPath(b)}/reviews/${submitted.id}`, { token: world.admin.token })).status).toBe(404);
    expect((await t.request('GET', `${crPath(a)}/reviews/${newId()}`, { token: world.admin.token })).status).toBe(404);
    const numbered = await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: a } });
    expect(
      (await t.request('GET', `${crPath(String(numbered.number))}/reviews/${submitted.id}`, { token: world.admin.token })).status,
    ).toBe(200);
  });

  it('is refused on a merged or archived change request (409)', async () => {
    const merged = await changeRequestBy();
    expect((await t.request('POST', `${crPath(merged)}/merge`, { token: world.admin.token })).body.result).toBe('merge');
    expect((await review(merged, world.reviewer)).status).toBe(409);
    const archived = await changeRequestBy();
    await t.request('PATCH', crPath(archived), { token: world.editor.token, body: { status: 'archived' } });
    const refused = await review(archived, world.reviewer);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('The change request is archived: it can no longer be reviewed.');
    expect(await t.prisma.changeRequestReview.count({ where: { changeRequestId: { in: [merged, archived] } } })).toBe(0);
  });

  it('lists a page of reviews with their comments in a number of statements that does not grow with the page', async () => {
    const cr = await changeRequestBy();
    await review(cr, world.reviewer, { status: 'approved', comment: { markdown: 'One' } });
    const one = await t.counted('GET', `${crPath(cr)}/reviews`, { token: world.reader.token });
    for (const person of [world.creator, world.admin, world.reviewer])
      await review(cr, person, { status: 'approved', comment: { markdown: 'More' } });
    const four = await t.counted('GET', `${crPath(cr)}/reviews`, { token: world.reader.token });
    expect(four.body.count).toBe(4);
    expect(four.statements).toBe(one.statements);
  });
});

describe('requested reviewers', () => {
  it('asks members for reviews through the official client, lists them, and a review answers its request', async () => {
    const cr = await changeRequestBy();
    const asked = await api(world.editor).spaces.requestReviewersForChangeRequest(space.id, cr, {
      users: [world.reviewer.userId, world.creator.userId],
    });
    expect(asked.status).toBe(200);
    expectMatchesSpec('0202', 'post', REQUESTED, 200, asked.data);
    const { revisionId } = await t.prisma.changeRequest.findUniqueOrThrow({ where: { id: cr } });
    expect(asked.data.users).toEqual([
      expect.objectContaining({ kind: 'user', user: expect.objectContaining({ id: world.reviewer.userId }), revision: revisionId }),
      expect.objectContaining({ kind: 'user', user: expect.objectContaining({ id: world.creator.userId }) }),
    ]);
    const { data: list } = await api(world.reader).spaces.getRequestedReviewersByChangeRequestId(space.id, cr);
    expectMatchesSpec('0202', 'get', REQUESTED, 200, list);
    expect(list.count).toBe(2);
    expect(list.items[0]).toMatchObject({ object: 'change-request-requested-reviewer', requestedBy: { id: world.editor.userId } });

    const answered = await review(cr, world.reviewer);
    expect(answered.body.requestedBy).toMatchObject({ id: world.editor.userId });
    expect((await review(cr, world.admin)).body.requestedBy).toBeUndefined();

    const removed = await api(world.editor).spaces.removeRequestedReviewerFromChangeRequest(space.id, cr, world.creator.userId);
    expect(removed.status).toBe(205);
    const again = await t.request('DELETE', `${crPath(cr)}/requested-reviewers/${world.creator.userId}`, { token: world.editor.token });
    expect(again.status).toBe(204);
    expect((await t.request('GET', `${crPath(cr)}/requested-reviewers`, { token: world.reader.token })).body.count).toBe(1);
    // Asking and taking back are recorded by the editor; taking back nothing records nothing.
    const recorded = await t.prisma.auditEvent.findMany({
      where: { targetId: cr, action: { in: ['change_request_reviewers_requested', 'change_request_reviewer_removed'] } },
      orderBy: { action: 'asc' },
    });
    expect(recorded).toMatchObject([
      { action: 'change_request_reviewer_removed', actorId: world.editor.userId, payload: { userId: world.creator.userId } },
      {
        action: 'change_request_reviewers_requested',
        actorId: world.editor.userId,
        payload: { users: [world.reviewer.userId, world.creator.userId], teams: [] },
      },
    ]);
  });

  it('asks again by renewing the request, and sets the subject and description when given', async () => {
    const cr = await changeRequestBy();
    const path = `${crPath(cr)}/requested-reviewers`;
    await t.request('POST', path, { token: world.editor.token, body: { users: [world.reviewer.userId] } });
    t.clock.advanceMs(1000);
    const description = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };
    const renewed = await t.request('POST', path, {
      token: world.admin.token,
      body: { users: [world.reviewer.userId], subject: 'Please review', description },
    });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.users[0]).toMatchObject({ requestedBy: { id: world.admin.userId }, createdAt: t.clock.now().toISOString() });
    expect((await t.request('GET', path, { token: world.reader.token })).body.count).toBe(1);
    expect((await t.request('GET', crPath(cr), { token: world.reader.token })).body).toMatchObject({
      subject: 'Please review',
      description,
    });
  });

  it('asks only members who may review the change request, never its author: a 400 that tells no more than a 404', async () => {
    const cr = await changeRequestBy();
    const path = `${crPath(cr)}/requested-reviewers`;
    const ask = (users: string[]) => t.request('POST', path, { token: world.editor.token, body: { users } });
    const unknown = await ask([world.reviewer.userId, newId()]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Invalid "users.1": no member who may review this change request has this id.');
    for (const user of [world.reader, world.guest, world.outsider]) {
      expect((await ask([user.userId])).body).toEqual({
        error: { code: 400, message: 'Invalid "users.0": no member who may review this change request has this id.' },
      });
    }
    const author = await ask([world.editor.userId]);
    expect(author.body.error.message).toBe('Invalid "users.0": the author of a change request cannot review it.');
    expect((await ask([])).status).toBe(400);
    expect(await t.prisma.changeRequestRequestedReviewer.count({ where: { changeRequestId: cr } })).toBe(0);
  });

  it('is asked by editors and up (403 below), 404 outside, 409 once merged or archived', async () => {
    const cr = await changeRequestBy();
    const path = `${crPath(cr)}/requested-reviewers`;
    const body = { users: [world.reviewer.userId] };
    for (const person of [world.commenter, world.reader])
      expect((await t.request('POST', path, { token: person.token, body })).status).toBe(403);
    for (const person of [world.guest, world.outsider])
      expect((await t.request('POST', path, { token: person.token, body })).status).toBe(404);
    expect((await t.request('DELETE', `${path}/${world.reviewer.userId}`, { token: world.reader.token })).status).toBe(403);
    expect((await t.request('GET', path, { token: world.outsider.token })).status).toBe(404);
    await t.request('PATCH', crPath(cr), { token: world.editor.token, body: { status: 'archived' } });
    expect((await t.request('POST', path, { token: world.editor.token, body })).status).toBe(409);
  });

  it('lists the change requests a user is asked to review, directly or through a team (asked through GraphQL), in a space and the organization', async () => {
    const own = await buildSpace(t.prisma, { organizationId: world.organizationId });
    const [direct, throughTeam, neither] = [
      await changeRequestBy(world.editor, own.id),
      await changeRequestBy(world.editor, own.id),
      await changeRequestBy(world.editor, own.id),
    ];
    const member = await buildMember(t.prisma, { organizationId: world.organizationId, role: 'review' });
    const team = (await t.prisma.team.create({ data: { id: newId(), organizationId: world.organizationId, title: 'Reviewers' } })).id;
    await t.prisma.teamMember.create({ data: { teamId: team, organizationId: world.organizationId, userId: member.userId } });
    await t.request('POST', `${crPath(direct, own.id)}/requested-reviewers`, {
      token: world.editor.token,
      body: { users: [member.userId] },
    });
    const mutation = `mutation($spaceId: ID!, $id: ID!, $teams: [ID!]) {
      requestChangeRequestReviewers(spaceId: $spaceId, changeRequestId: $id, input: { users: [], teams: $teams }) {
        teams { kind team { id title } requestedBy { id } } } }`;
    const asked = await t.request('POST', '/graphql', {
      token: world.editor.token,
      body: { query: mutation, variables: { spaceId: own.id, id: throughTeam, teams: [team] } },
    });
    expect(asked.body.errors, asked.text).toBeUndefined();
    expect(asked.body.data.requestChangeRequestReviewers.teams).toEqual([
      { kind: 'team', team: { id: team, title: 'Reviewers' }, requestedBy: { id: world.editor.userId } },
    ]);
    const listed = await t.request('GET', `/v1/spaces/${own.id}/change-requests?status=draft&requestedReviewer=${member.userId}`, {
      token: world.reader.token,
    });
    expectMatchesSpec('0202', 'get', '/spaces/{spaceId}/change-requests', 200, listed.body);
    expect(listed.body.items.map((item: { id: string }) => item.id).sort()).toEqual([direct, throughTeam].sort());
    const none = await t.request('GET', `/v1/spaces/${own.id}/change-requests?status=draft&requestedReviewer=${world.creator.userId}`, {
      token: world.reader.token,
    });
    expect(none.body.count).toBe(0);
    const organizationWide = await t.request(
      'GET',
      `/v1/orgs/${world.organizationId}/change-requests?status=draft&requestedReviewer=${member.userId}`,
      {
        token: world.reader.token,
      },
    );
    expectMatchesSpec('0202', 'get', '/orgs/{organizationId}/change-requests', 200, organizationWide.body);
    expect(organizationWide.body.items.map((item: { id: string }) => item.id).sort()).toEqual([direct, throughTeam].sort());

    // A team member's review answers the team's request.
    const answered = await review(throughTeam, member, { status: 'approved' }, own.id);
    expect(answered.body.requestedBy).toMatchObject({ id: world.editor.userId });
    const otherTeam = await t.request('POST', '/graphql', {
      token: world.editor.token,
      body: { query: mutation, variables: { spaceId: own.id, id: neither, teams: [newId()] } },
    });
    expect(otherTeam.body.errors[0].message).toBe('Invalid "teams.0": no such team in this organization.');
  });
});
