// ETag / If-Match on every other kind that has a tag (README, "No lost updates"): a write answers the object's new tag
// (the one a GET then answers, where there is a GET), a write with the tag it replaced is a 412 that changes nothing,
// a write with the current one goes through, and so does a delete with it.
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/app.js';
import { buildMember, buildSite, buildSpace, buildUser } from '../support/factories.js';

const { t, world } = useApi({ world: true });

interface Kind {
  /** Makes one; answers its address and the answer that made it (which carries its first tag). */
  create(): Promise<{ path: string; made: { status: number; headers: Headers; text: string } }>;
  /** The method and two bodies of a write, each changing the object. */
  write: { method: 'PATCH' | 'PUT'; first: object; second: object };
  /** Where a GET reads the object, when one does. */
  read?: (path: string) => string;
  deletes?: boolean;
}

const call = (method: string, path: string, body?: unknown, ifMatch?: string) =>
  t.request(method, path, { token: world.admin.token, body, headers: ifMatch ? { 'if-match': ifMatch } : {} });
const made = async (method: string, path: string, body: unknown) => {
  const res = await call(method, path, body);
  expect(res.status, res.text).toBeLessThan(300);
  return res;
};
const siteOf = async (visibility: 'public' | 'share_link' = 'public') =>
  `/v1/orgs/${world.organizationId}/sites/${(await buildSite(t.prisma, { organizationId: world.organizationId, visibility })).id}`;

const kinds: Record<string, Kind> = {
  'site space': {
    create: async () => {
      const site = await siteOf();
      const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
      const res = await made('POST', `${site}/site-spaces`, { spaceId: space.id });
      return { path: `${site}/site-spaces/${res.body.id}`, made: res };
    },
    write: { method: 'PATCH', first: { path: 'first' }, second: { path: 'second' } },
    deletes: true,
  },
  'site section': {
    create: async () => {
      const site = await siteOf();
      const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
      const res = await made('POST', `${site}/sections`, { spaceId: space.id, title: 'Guides' });
      return { path: `${site}/sections/${res.body.id}`, made: res };
    },
    write: { method: 'PATCH', first: { title: 'First' }, second: { title: 'Second' } },
    deletes: true,
  },
  'site redirect': {
    create: async () => {
      const site = await siteOf();
      const res = await made('POST', `${site}/redirects`, {
        source: '/old',
        destination: { kind: 'external', url: 'https://example.com/' },
      });
      return { path: `${site}/redirects/${res.body.id}`, made: res };
    },
    write: { method: 'PATCH', first: { source: '/first' }, second: { source: '/second' } },
    deletes: true,
  },
  'share link': {
    create: async () => {
      const site = await siteOf('share_link');
      const res = await made('POST', `${site}/share-links`, { name: 'Link' });
      return { path: `${site}/share-links/${res.body.id}`, made: res };
    },
    write: { method: 'PATCH', first: { name: 'First' }, second: { name: 'Second' } },
    deletes: true,
  },
  comment: {
    create: async () => {
      const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
      const res = await made('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'Hello.' } });
      return { path: `/v1/spaces/${space.id}/comments/${res.body.id}`, made: res };
    },
    write: { method: 'PUT', first: { body: { markdown: 'First.' } }, second: { body: { markdown: 'Second.' } } },
    read: (path) => path,
    deletes: true,
  },
  'custom field': {
    create: async () => {
      const fields = `/v1/orgs/${world.organizationId}/custom-fields`;
      const res = await made('POST', fields, { name: 'audience', type: 'text' });
      return { path: `${fields}/audience`, made: res };
    },
    write: { method: 'PATCH', first: { title: 'First' }, second: { title: 'Second' } },
    read: (path) => path,
    deletes: true,
  },
  'OpenAPI specification': {
    create: async () => {
      const path = `/v1/orgs/${world.organizationId}/openapi/petstore`;
      return { path, made: await made('PUT', path, { source: { text: '{"openapi": "3.1.0"}' } }) };
    },
    write: { method: 'PUT', first: { source: { text: '{"openapi": "3.1.1"}' } }, second: { source: { text: '{"openapi": "3.1.2"}' } } },
    read: (path) => path,
    deletes: true,
  },
  webhook: {
    create: async () => {
      const hooks = `/v1/orgs/${world.organizationId}/webhooks`;
      const res = await made('POST', hooks, { url: 'https://receiver.test/hook', events: ['space_created'] });
      return { path: `${hooks}/${res.body.id}`, made: res };
    },
    write: { method: 'PATCH', first: { description: 'First' }, second: { description: 'Second' } },
    read: (path) => path,
    deletes: true,
  },
  member: {
    create: async () => {
      const person = await buildMember(t.prisma, { organizationId: world.organizationId, role: 'read', user: await buildUser(t.prisma) });
      const path = `/v1/orgs/${world.organizationId}/members/${person.userId}`;
      return { path, made: await made('GET', path, undefined) };
    },
    write: { method: 'PATCH', first: { role: 'edit' }, second: { role: 'review' } },
    read: (path) => path,
    deletes: true,
  },
  team: {
    create: async () => {
      const res = await made('PUT', `/v1/orgs/${world.organizationId}/teams`, { title: 'Writers' });
      const path = `/v1/orgs/${world.organizationId}/teams/${res.body.id}`;
      return { path, made: await made('GET', path, undefined) };
    },
    write: { method: 'PATCH', first: { title: 'First' }, second: { title: 'Second' } },
    read: (path) => path,
    deletes: true,
  },
  organization: {
    create: async () => {
      const path = `/v1/orgs/${world.organizationId}`;
      return { path, made: await made('GET', path, undefined) };
    },
    write: { method: 'PATCH', first: { title: 'First' }, second: { title: 'Second' } },
    read: (path) => path,
  },
};

describe.each(Object.entries(kinds))('%s', (_name, kind) => {
  it('answers its tag, refuses a write or delete with the one it replaced, and takes the current one', async () => {
    const { path, made: answer } = await kind.create();
    const first = answer.headers.get('etag');
    expect(first, answer.text).toMatch(/^"[^"]+"$/);
    const written = await call(kind.write.method, path, kind.write.first);
    expect(written.status, written.text).toBe(200);
    const current = written.headers.get('etag')!;
    expect(current).toMatch(/^"[^"]+"$/);
    expect(current).not.toBe(first);
    if (kind.read) expect((await call('GET', kind.read(path))).headers.get('etag')).toBe(current);

    const stale = await call(kind.write.method, path, kind.write.second, first!);
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.error.code).toBe(412);
    if (kind.read) expect((await call('GET', kind.read(path))).headers.get('etag')).toBe(current);
    if (kind.deletes) expect((await call('DELETE', path, undefined, first!)).status).toBe(412);

    const fresh = await call(kind.write.method, path, kind.write.second, current);
    expect(fresh.status, fresh.text).toBe(200);
    if (kind.deletes) expect((await call('DELETE', path, undefined, fresh.headers.get('etag')!)).status).toBeLessThan(300);
  });
});
