// STORAGE_QUOTA_MB (src/files/storage.ts, src/files/usage.ts): the distinct bytes an organization's rows name, history
// included, bounded; a write past it is a 409 naming the quota and stores nothing new; admins read the usage.
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeFiles } from '../../src/files/storage.js';
import { useApi } from '../support/app.js';
import { buildMember, buildOrganization, buildSpace } from '../support/factories.js';

const MB = 1024 * 1024;
const { t } = useApi({ env: { STORAGE_QUOTA_MB: '2' } });

let admin: Awaited<ReturnType<typeof buildMember>>;
let editor: Awaited<ReturnType<typeof buildMember>>;
let organizationId: string;
beforeAll(async () => {
  const built = await buildOrganization(t.prisma);
  [admin, organizationId] = [built.owner, built.organization.id];
  editor = await buildMember(t.prisma, { organizationId, role: 'edit' });
});

async function upload(spaceId: string, files: Buffer[]) {
  const cr = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: admin.token, body: { subject: 'Files' } });
  return t.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
    token: admin.token,
    body: {
      changes: [
        {
          operation: 'insert_files',
          files: files.map((bytes, i) => ({
            name: `file-${i}.bin`,
            contentType: 'application/octet-stream',
            base64: bytes.toString('base64'),
          })),
        },
      ],
    },
  });
}

const usage = async (token = admin.token) => t.request('GET', `/v1/orgs/${organizationId}/storage`, { token });

describe('the storage quota', () => {
  it('counts distinct bytes, refuses the write that would pass the quota, and keeps what fits', async () => {
    const [space, other] = [await buildSpace(t.prisma, { organizationId }), await buildSpace(t.prisma, { organizationId })];
    expect((await usage()).body).toEqual({ object: 'organization-storage', usedBytes: 0, quotaBytes: 2 * MB });
    const first = randomBytes(0.9 * MB);
    expect((await upload(space.id, [first])).status).toBe(200);
    // The same bytes again, in another space: named twice, counted once.
    expect((await upload(other.id, [first])).status).toBe(200);
    expect((await usage()).body.usedBytes).toBe(first.byteLength);

    // Two files of one batch that fit one at a time but not together.
    const [second, third] = [randomBytes(0.6 * MB), randomBytes(0.6 * MB)];
    const refused = await upload(space.id, [second, third]);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/storage quota \(STORAGE_QUOTA_MB, 2 MB\)/);
    expect((await usage()).body.usedBytes).toBe(first.byteLength);
    expect(await t.app.services.files.open(createHash('sha256').update(second).digest('hex'))).toBeNull();

    expect((await upload(space.id, [second])).status).toBe(200);
    expect((await usage()).body.usedBytes).toBe(first.byteLength + second.byteLength);
    // Bytes the organization already names add nothing, even at the limit.
    expect((await upload(other.id, [second])).status).toBe(200);
  });

  it('holds under concurrent writes: of ten at once that each fit alone, only those that fit together pass', async () => {
    const { organization, owner } = await buildOrganization(t.prisma);
    const space = await buildSpace(t.prisma, { organizationId: organization.id });
    // Straight to the storage, so that the ten intents' statements run at the same moment on ten connections.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        storeFiles(t.app.services, [{ bytes: randomBytes(0.3 * MB), name: 'part.bin' }], { spaceId: space.id }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(6);
    for (const outcome of outcomes.filter((outcome) => outcome.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason.message).toMatch(/STORAGE_QUOTA_MB/);
    }
    const used = await t.request('GET', `/v1/orgs/${organization.id}/storage`, { token: owner.token });
    expect(used.body.usedBytes).toBe(6 * Math.floor(0.3 * MB));
  });

  it('is read by admins only, over REST and GraphQL', async () => {
    expect((await usage(editor.token)).status).toBe(403);
    const graphql = await t.request('POST', '/graphql', {
      token: admin.token,
      body: { query: `{ organization(id: "${organizationId}") { storage { usedBytes quotaBytes } } }` },
    });
    expect(graphql.body.data.organization.storage.quotaBytes).toBe(2 * MB);
  });
});
