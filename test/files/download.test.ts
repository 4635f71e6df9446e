// Downloading files: every File's downloadURL answers its bytes with their type, length and a safe disposition, for
// DOWNLOAD_LINK_MINUTES; a changed or expired link is refused (403), bytes that are not stored, and the files of a
// space deleted since, are not found (404).
import { beforeAll, describe, expect, it } from 'vitest';
import { downloadUrl } from '../../src/files/download.js';
import { storeFile } from '../../src/files/index.js';
import { file, publish } from '../revisions/content.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { oneCharacterOff } from '../support/tamper.js';
import { png, svg } from './images.js';

const { t, world } = useApi({ world: true, env: { DOWNLOAD_LINK_MINUTES: '10' } });
/** downloadURL of each file of the space, by file id. */
const links = new Map<string, string>();
let spaceId: string;
const image = png(12, 7, 1);
const script = svg(10, 10);

beforeAll(async () => {
  const space = await buildSpace(t.prisma, { organizationId: world.organizationId });
  spaceId = space.id;
  await publish(t.prisma, space.id, {
    files: [
      file('photo', 'photo – été.png', await storeFile(t.app.services, image, 'photo – été.png')),
      file('drawing', 'drawing.svg', await storeFile(t.app.services, script, 'drawing.svg')),
    ],
  });
  const res = await t.request('GET', `/v1/spaces/${space.id}/content/files`, { token: world.reader.token });
  for (const item of res.body.items) links.set(item.id, item.downloadURL);
});

const download = (url: string, init?: RequestInit) => fetch(url, init);
const withParam = (url: string, name: string, value: string) => {
  const changed = new URL(url);
  changed.searchParams.set(name, value);
  return changed.toString();
};

describe('GET /files/{storageKey}', () => {
  it('answers the bytes of an image with their type and length, shown inline, under their UTF-8 name', async () => {
    const res = await download(links.get('photo')!);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(image)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(image.length));
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="photo ? été.png"; filename*=UTF-8''photo%20%E2%80%93%20%C3%A9t%C3%A9.png`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const head = await download(links.get('photo')!, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(image.length), '']);
  });

  it('answers what a browser could run (SVG) as an attachment, sandboxed', async () => {
    const res = await download(links.get('drawing')!);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(script.toString());
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="drawing.svg"');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('refuses a link with any signed part changed, or without its signature', async () => {
    const link = links.get('photo')!;
    const signature = new URL(link).searchParams.get('signature')!;
    const tampered = [
      withParam(link, 'signature', oneCharacterOff(signature)),
      withParam(link, 'name', 'other.png'),
      withParam(link, 'type', 'text/html'),
      withParam(link, 'space', world.organizationId),
      withParam(link, 'expires', String(Number(new URL(link).searchParams.get('expires')) + 3600)),
      link.replace(/&signature=[^&]+/, ''),
      link.replace(new URL(link).pathname, new URL(links.get('drawing')!).pathname),
    ];
    for (const url of tampered) {
      const res = await download(url);
      expect(res.status, url).toBe(403);
      expect((await res.json()).error.code).toBe(403);
    }
  });

  it('works for DOWNLOAD_LINK_MINUTES, and is refused once expired', async () => {
    const link = (await t.request('GET', `/v1/spaces/${spaceId}/content/files`, { token: world.reader.token })).body.items[0]
      .downloadURL as string;
    // Minted now: it works 10 minutes, and at most one step (a twelfth of them) more.
    t.clock.advanceMs(10 * 60 * 1000);
    expect((await download(link)).status).toBe(200);
    t.clock.advanceMs(60 * 1000);
    const res = await download(link);
    expect([res.status, (await res.json()).error.message]).toEqual([403, 'This download link has expired.']);
  });

  it('stops working once the space is deleted, and works again once it is restored', async () => {
    const link = (await t.request('GET', `/v1/spaces/${spaceId}/content/files`, { token: world.reader.token })).body.items[0]
      .downloadURL as string;
    expect((await download(link)).status).toBe(200);
    expect((await t.request('DELETE', `/v1/spaces/${spaceId}`, { token: world.admin.token })).status).toBeLessThan(300);
    const res = await download(link);
    expect([res.status, (await res.json()).error.message]).toEqual([404, 'File not found']);
    expect((await t.request('POST', `/v1/spaces/${spaceId}/restore`, { token: world.admin.token })).status).toBeLessThan(300);
    expect((await download(link)).status).toBe(200);
  });

  it('answers 404 for bytes that are not stored, and 405 for anything but reading', async () => {
    const services = t.app.services;
    const missing = downloadUrl(services, { storageKey: 'f'.repeat(64), name: 'gone.txt', contentType: 'text/plain' }, spaceId);
    const res = await download(missing);
    expect([res.status, (await res.json()).error.message]).toEqual([404, 'File not found']);
    expect((await download(`${t.url}/files/not-a-key?signature=x`)).status).toBe(404);
    const post = await download(downloadUrl(services, { storageKey: 'f'.repeat(64), name: 'x', contentType: 'text/plain' }, spaceId), {
      method: 'POST',
    });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});
