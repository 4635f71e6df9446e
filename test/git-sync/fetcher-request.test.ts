// The guarded fetcher's streaming request, which Git's transfers go through (src/git-sync/remote.ts): any status
// answered, a POST body sent, the body read as it comes within the cap and the timeout, redirects followed for GET
// only, an authorization header sent to its origin only, and non-public targets refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, FetchError, type Fetcher } from '../../src/kernel/fetcher.js';

let server: http.Server;
let other: http.Server;
let base: string;
let otherBase: string;
let fetcher: Fetcher;

const listen = async (handler: http.RequestListener) => {
  const created = http.createServer(handler);
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return { server: created, base: `http://127.0.0.1:${(created.address() as AddressInfo).port}` };
};

beforeAll(async () => {
  ({ server: other, base: otherBase } = await listen((req, res) => res.writeHead(200).end(req.headers.authorization ?? 'none')));
  ({ server, base } = await listen((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => res.writeHead(201, { 'X-Method': req.method! }).end(Buffer.concat(chunks)));
      return;
    }
    if (url.pathname === '/authorization') return res.writeHead(200).end(req.headers.authorization ?? 'none');
    if (url.pathname === '/to-authorization') return res.writeHead(302, { location: '/authorization' }).end();
    if (url.pathname === '/elsewhere') return res.writeHead(302, { location: `${otherBase}/` }).end();
    if (url.pathname === '/unauthorized') return res.writeHead(401, { 'WWW-Authenticate': 'Basic' }).end('who?');
    if (url.pathname === '/stream') {
      res.writeHead(200);
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= 100_000 || res.destroyed) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(Buffer.alloc(10_000, 1));
        sent += 10_000;
      }, 2);
      return;
    }
    if (url.pathname === '/stall') {
      res.writeHead(200);
      res.write('start');
      return;
    }
    res.writeHead(404).end();
  }));
  fetcher = createFetcher({ allowPrivateNetwork: true });
});
afterAll(async () => {
  await fetcher.close();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => other.close(resolve));
});

const read = async (body: AsyncIterable<Uint8Array>) => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
};
const failureOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchError);
    return error as FetchError;
  }
  return expect.unreachable('it succeeded');
};

describe('fetcher.request', () => {
  it('sends a POST body and answers the status, headers and body as they are', async () => {
    const answer = await fetcher.request(`${base}/echo`, {
      method: 'POST',
      body: Buffer.from('packfile'),
      headers: { 'content-type': 'x/y' },
    });
    expect(answer).toMatchObject({ status: 201, url: `${base}/echo`, headers: { 'x-method': 'POST' } });
    expect((await read(answer.body)).toString()).toBe('packfile');
    const refused = await fetcher.request(`${base}/unauthorized`);
    expect(refused).toMatchObject({ status: 401, statusText: 'Unauthorized', headers: { 'www-authenticate': 'Basic' } });
    expect((await read(refused.body)).toString()).toBe('who?');
  });

  it('follows redirects for GET only, with the authorization header kept to its origin', async () => {
    const headers = { Authorization: 'Basic c2VjcmV0' };
    const followed = await fetcher.request(`${base}/to-authorization`, { headers });
    expect(followed.url).toBe(`${base}/authorization`);
    expect((await read(followed.body)).toString()).toBe('Basic c2VjcmV0');
    const away = await fetcher.request(`${base}/elsewhere`, { headers });
    expect(away.url).toBe(`${otherBase}/`);
    expect((await read(away.body)).toString()).toBe('none');
    const posted = await fetcher.request(`${base}/to-authorization`, { method: 'POST', body: Buffer.from('x'), headers });
    expect(posted.status).toBe(302);
  });

  it('caps the body as it is read, and ends it at the timeout', async () => {
    expect((await read((await fetcher.request(`${base}/stream`, { maxBytes: 100_000 })).body)).byteLength).toBe(100_000);
    const capped = await fetcher.request(`${base}/stream`, { maxBytes: 50_000 });
    expect(await failureOf(read(capped.body))).toMatchObject({ code: 'TOO_LARGE' });
    const stalled = await fetcher.request(`${base}/stall`, { timeoutMs: 300 });
    const timeout = await failureOf(read(stalled.body));
    expect(timeout.code).toBe('TIMEOUT');
    expect(timeout.message).toContain(base);
  });

  it('refuses non-public targets unless private networks are allowed', async () => {
    const guarded = createFetcher({ allowPrivateNetwork: false });
    try {
      expect(await failureOf(guarded.request(`${base}/echo`, { method: 'POST', body: Buffer.from('x') }))).toMatchObject({
        code: 'PRIVATE_ADDRESS',
      });
      const resolved = await failureOf(guarded.request(base.replace('127.0.0.1', 'localhost')));
      expect(resolved).toMatchObject({ code: 'PRIVATE_ADDRESS', message: expect.stringMatching(/^localhost resolves to /) });
    } finally {
      await guarded.close();
    }
  });
});
