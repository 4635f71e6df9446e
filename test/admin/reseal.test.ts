// The start-up's data step that re-seals secrets stored in the first format (bound to nothing) bound to their purpose
// and row: every sealed column and the Git sync jobs' credentials, read back afterwards through the API and by the
// code that uses them; run again, it changes nothing; a value sealed under another secret is left and reported.
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { resealLegacySecrets } from '../../src/admin/reseal.js';
import { gitCredentialsSealedFor } from '../../src/git-sync/task.js';
import { integrationSecretsSealedFor } from '../../src/integrations/service.js';
import type { Context } from '../../src/kernel/context.js';
import { hashToken, newId } from '../../src/kernel/ids.js';
import { seal, unseal } from '../../src/kernel/sealed.js';
import { privateKeySealedFor } from '../../src/publishing-auth/service.js';
import { verifyVisitorToken } from '../../src/publishing-auth/visitors.js';
import { activeShareLink, shareKeySealedFor } from '../../src/share-links/keys.js';
import { buildIntegration } from '../integrations/fixtures.js';
import { buildSite } from '../site-redirects/fixtures.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { sealedInFirstFormat } from '../support/legacy-sealed.js';

const { t, world } = useApi({ world: true, env: { SITES_URL: 'https://sites.example.com' } });
let ctx: Context;
beforeAll(() => {
  ctx = t.app.services as Context;
});

/** Every sealed value the database holds, by where it is. */
async function sealedValues() {
  const [links, auths, integrations, syncs, jobs] = await Promise.all([
    t.prisma.shareLink.findMany({ orderBy: { id: 'asc' } }),
    t.prisma.publishingAuth.findMany({ orderBy: { siteId: 'asc' } }),
    t.prisma.integration.findMany({ orderBy: { name: 'asc' } }),
    t.prisma.gitSync.findMany({ orderBy: { spaceId: 'asc' } }),
    t.prisma.backgroundJob.findMany({ orderBy: { id: 'asc' } }),
  ]);
  return [
    ...links.map((row) => row.keyCiphertext),
    ...auths.map((row) => row.privateKeyCiphertext),
    ...integrations.map((row) => row.secretsCiphertext),
    ...syncs.map((row) => row.credentialsCiphertext),
    ...jobs.map((row) => (row.payload as { credentials?: string | null }).credentials),
  ];
}

describe('re-sealing the secrets of the first format', () => {
  it('binds each to its purpose and row, in place, where the API and the jobs read them', async () => {
    const { secret } = ctx;
    const acme = world.organizationId;
    const site = await buildSite(t.prisma, { organizationId: acme, hostname: 'shared.acme.example.com', visibility: 'share_link' });
    const shareKey = 'k'.repeat(32);
    const link = await t.prisma.shareLink.create({
      data: {
        id: newId(),
        siteId: site.id,
        name: 'Old',
        keyHash: hashToken(shareKey),
        keyCiphertext: sealedInFirstFormat(secret, shareKey),
      },
    });
    const privateKey = randomBytes(32).toString('base64url');
    await t.prisma.publishingAuth.create({
      data: { siteId: site.id, privateKeyCiphertext: sealedInFirstFormat(secret, privateKey), updatedAt: new Date() },
    });
    const integration = await buildIntegration(t.prisma, {
      ownerOrganizationId: acme,
      secretsCiphertext: sealedInFirstFormat(secret, JSON.stringify({ API_KEY: 'sk-old' })),
    });
    const credentials = JSON.stringify({ username: 'git', password: 'old-password' });
    const space = await buildSpace(t.prisma, { organizationId: acme });
    await t.prisma.gitSync.create({
      data: {
        spaceId: space.id,
        url: 'https://git.example.com/docs.git',
        ref: 'main',
        credentialsCiphertext: sealedInFirstFormat(secret, credentials),
      },
    });
    const operation = await t.prisma.gitSyncOperation.create({
      data: { id: newId(), spaceId: space.id, direction: 'import', ref: 'main' },
    });
    const job = (id: string, operationId: string) =>
      t.prisma.backgroundJob.create({
        data: {
          id,
          kind: 'git-sync',
          maxAttempts: 1,
          payload: { operationId, url: 'https://git.example.com/docs.git', credentials: sealedInFirstFormat(secret, credentials) },
        },
      });
    const queued = await job(newId(), operation.id);
    // A job whose operation is gone (its space purged) never runs: it has nothing to be sealed for.
    const orphan = await job(newId(), 'noSuchOperation00001');
    // Sealed under another instance secret: this instance cannot read it, before or after.
    const foreign = await buildIntegration(t.prisma, {
      ownerOrganizationId: acme,
      secretsCiphertext: sealedInFirstFormat(randomBytes(32), '{"API_KEY":"lost"}'),
    });
    // Already bound: left as it is.
    const current = await buildIntegration(t.prisma, { ownerOrganizationId: acme });
    const currentSealed = seal(secret, integrationSecretsSealedFor(current.name), '{"API_KEY":"current"}');
    await t.prisma.integration.update({ where: { id: current.id }, data: { secretsCiphertext: currentSealed } });

    expect(await resealLegacySecrets(t.databaseUrl, secret)).toEqual({
      resealed: 6,
      unopened: [`Integration.secretsCiphertext of ${foreign.name}`],
    });

    const links = await t.request('GET', `/v1/orgs/${acme}/sites/${site.id}/share-links`, { token: world.admin.token });
    expect(links.status, links.text).toBe(200);
    expect(links.body.items).toEqual([
      expect.objectContaining({
        id: link.id,
        urls: expect.objectContaining({ published: `https://shared.acme.example.com/?share=${shareKey}` }),
      }),
    ]);
    expect((await activeShareLink(ctx, site.id, shareKey))?.id).toBe(link.id);

    const auth = await t.request('GET', `/v1/orgs/${acme}/sites/${site.id}/publishing/auth`, { token: world.admin.token });
    expect(auth.status, auth.text).toBe(200);
    expect(auth.body.privateKey).toBe(privateKey);
    const visitorToken = await new SignJWT({ sub: 'visitor' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(site.id)
      .setIssuedAt(t.clock.now())
      .setExpirationTime(new Date(t.clock.now().getTime() + 3_600_000))
      .sign(new TextEncoder().encode(privateKey));
    expect(await verifyVisitorToken(ctx, site.id, visitorToken)).toMatchObject({ ok: true });

    const stored = await t.prisma.integration.findUniqueOrThrow({ where: { id: integration.id } });
    expect(stored.secretsCiphertext).toMatch(/^v2\./);
    expect(unseal(secret, integrationSecretsSealedFor(integration.name), stored.secretsCiphertext!)).toBe('{"API_KEY":"sk-old"}');
    const sync = await t.prisma.gitSync.findUniqueOrThrow({ where: { spaceId: space.id } });
    expect(unseal(secret, gitCredentialsSealedFor(space.id), sync.credentialsCiphertext!)).toBe(credentials);
    const payload = (await t.prisma.backgroundJob.findUniqueOrThrow({ where: { id: queued.id } })).payload as Record<string, string>;
    expect(payload).toMatchObject({ operationId: operation.id, url: 'https://git.example.com/docs.git' });
    expect(unseal(secret, gitCredentialsSealedFor(space.id), payload.credentials)).toBe(credentials);
    expect((await t.prisma.backgroundJob.findUniqueOrThrow({ where: { id: orphan.id } })).payload).toMatchObject({ credentials: null });

    // Each value is bound to its own row and purpose: moved to another, it does not open.
    const { keyCiphertext } = await t.prisma.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(() => unseal(secret, shareKeySealedFor(newId()), keyCiphertext)).toThrow();
    expect(() => unseal(secret, privateKeySealedFor(site.id), sync.credentialsCiphertext!)).toThrow();
    expect((await t.prisma.integration.findUniqueOrThrow({ where: { id: foreign.id } })).secretsCiphertext).toMatch(/^v1\./);
    expect((await t.prisma.integration.findUniqueOrThrow({ where: { id: current.id } })).secretsCiphertext).toBe(currentSealed);

    // Idempotent: a second start re-seals nothing and changes nothing.
    const after = await sealedValues();
    expect(await resealLegacySecrets(t.databaseUrl, secret)).toEqual({
      resealed: 0,
      unopened: [`Integration.secretsCiphertext of ${foreign.name}`],
    });
    expect(await sealedValues()).toEqual(after);
  });
});
