// The counters of a space (open comments; change requests in all, open, draft), for one space and for a list, where
// one statement counts them for the whole page.
import { beforeAll, expect, it } from 'vitest';
import type { ChangeRequestStatus, CommentStatus } from '../../src/generated/prisma/enums.js';
import { newId } from '../../src/kernel/ids.js';
import { type Person, useApi } from '../support/app.js';
import { buildOrganization, buildSpace } from '../support/factories.js';

const { t } = useApi();
let owner: Person;
let organizationId: string;

beforeAll(async () => {
  ({
    organization: { id: organizationId },
    owner,
  } = await buildOrganization(t.prisma));
});

async function spaceWith(comments: CommentStatus[], changeRequests: ChangeRequestStatus[]) {
  const space = await buildSpace(t.prisma, { organizationId });
  await t.prisma.comment.createMany({
    data: comments.map((status) => ({ id: newId(), spaceId: space.id, postedById: owner.userId, body: { markdown: 'x' }, status })),
  });
  await t.prisma.changeRequest.createMany({
    data: changeRequests.map((status, i) => ({
      id: newId(),
      spaceId: space.id,
      number: i + 1,
      status,
      createdById: owner.userId,
      revisionId: space.revisionId!,
      revisionInitialId: space.revisionId!,
    })),
  });
  return space.id;
}

it('counts open comments and change requests by status, per space, in a list and alone', async () => {
  const busy = await spaceWith(['open', 'open', 'resolved'], ['open', 'draft', 'draft', 'merged', 'archived']);
  const quiet = await spaceWith([], []);
  const drafts = await spaceWith(['resolved'], ['draft']);
  const list = await t.request('GET', `/v1/orgs/${organizationId}/spaces`, { token: owner.token });
  const counters = (id: string, body: Record<string, unknown>[]) => {
    const space = body.find((s) => s.id === id)!;
    return [space.comments, space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft];
  };
  expect(counters(busy, list.body.items)).toEqual([2, 5, 1, 2]);
  expect(counters(quiet, list.body.items)).toEqual([0, 0, 0, 0]);
  expect(counters(drafts, list.body.items)).toEqual([0, 1, 0, 1]);
  const alone = await t.request('GET', `/v1/spaces/${busy}`, { token: owner.token });
  expect(counters(busy, [alone.body])).toEqual([2, 5, 1, 2]);
});
