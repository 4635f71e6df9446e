// Downloads on the S3 backend (against s3rver, test/support/s3-server.ts): a file's downloadURL streams the object
// through the API, or with S3_PRESIGNED_DOWNLOADS=true redirects, after the same checks, to a presigned URL of the
// object that lives a minute. Either way a changed link is refused before the store is asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../src/files/index.js';
import { file, publish } from '../revisions/content.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildOrganization, buildSpace } from '../support/factories.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';
import { png } from './images.js';

const image = png(16, 9, 5);
let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server('downloads/');
});
afterAll(() => s3.close());

describe.each([
  ['streams the object through the API', 'false'],
  ['redirects to a presigned URL of the object', 'true'],
])('on S3, a download link %s', (_title, presigned) => {
  let t: TestApp;
  let link: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...s3.env, S3_PRESIGNED_DOWNLOADS: presigned } });
    const { organization, owner } = await buildOrganization(t.prisma);
    const space = await buildSpace(t.prisma, { organizationId: organization.id });
    await publish(t.prisma, space.id, { files: [file('chart', 'chart – 1.png', await storeFile(t.app.services, image, 'chart – 1.png'))] });
    const files = await t.request('GET', `/v1/spaces/${space.id}/content/files`, { token: owner.token });
    link = files.body.items[0].downloadURL;
  });
  afterAll(() => t.close());

  it('answers the bytes, with their type and name', async () => {
    const first = await fetch(link, { redirect: 'manual' });
    if (presigned === 'true') {
      expect(first.status).toBe(302);
      const location = new URL(first.headers.get('location')!);
      expect(location.origin).toBe(s3.env.S3_ENDPOINT);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('60');
      expect(first.headers.get('cache-control')).toBe('no-store');
    } else {
      expect(first.status).toBe(200);
    }
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(image)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="chart ? 1.png"; filename*=UTF-8''chart%20%E2%80%93%201.png`);
  });

  it('refuses a changed link', async () => {
    const changed = new URL(link);
    changed.searchParams.set('name', 'other.png');
    const res = await fetch(changed, { redirect: 'manual' });
    expect(res.status).toBe(403);
  });
});
