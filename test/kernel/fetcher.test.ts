// The guarded fetcher: non-public addresses are refused (literal or resolved) unless private networks are allowed;
// redirects are followed by hand up to a limit; timeouts and size caps end a fetch; a wait past the idle timeout
// (headers, body) is a TIMEOUT like the exchange's own, other network failures NETWORK; errors never show credentials.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type FetchError, isPublicAddress } from '../../src/kernel/fetcher.js';

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/hello') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    if (url.pathname === '/redirect')
      return res.writeHead(302, { location: `/redirect?n=${Number(url.searchParams.get('n') ?? 0) + 1}` }).end();
    if (url.pathname === '/to-hello') return res.writeHead(301, { location: '/hello' }).end();
    if (url.pathname === '/slow') return setTimeout(() => res.end('late'), 2000);
    if (url.pathname === '/big') {
      res.writeHead(200);
      // Streamed without a length: the cap must stop it while it is read.
      let sent = 0;
      const timer = setInterval(() => {
        if (sent > 200_000 || res.destroyed) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(Buffer.alloc(10_000));
        sent += 10_000;
      }, 1);
      return;
    }
    if (url.pathname === '/missing') return res.writeHead(404).end();
    if (url.pathname === '/echo-authorization') return res.writeHead(200).end(req.headers.authorization ?? '');
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the fetch succeeded'),
    (error: FetchError) => ({ code: error.code, message: error.message }),
  );

describe('the guarded fetcher', () => {
  it('classifies addresses: only public unicast ones are public', () => {
    for (const address of ['8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('classifies IPv6 addresses that carry an IPv4 address by the IPv4 address they carry', () => {
    const carrying = {
      'IPv4-compatible': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::a9fe:a9fe', '::8.8.8.8'],
      'IPv4-mapped': ['::ffff:7f00:1', '::ffff:192.168.1.1', '::ffff:8.8.8.8'],
      'IPv4-translated (RFC 6145)': ['::ffff:0:7f00:1', '::ffff:0:a00:1', '::ffff:0:808:808'],
      'NAT64 (64:ff9b::/96)': ['64:ff9b::7f00:1', '64:ff9b::10.1.2.3', '64:ff9b::a9fe:a9fe', '64:ff9b::808:808'],
      '6to4 (2002::/16)': ['2002:7f00:1::1', '2002:c0a8:101::1', '2002:a00:1:1::1', '2002:808:808::1'],
      // Server 65.54.227.120; client 10.0.0.1, 127.0.0.1, then 8.8.8.8, inverted as Teredo writes it.
      'Teredo (2001::/32)': [
        '2001:0:4136:e378:8000:63bf:f5ff:fffe',
        '2001:0:4136:e378:8000:63bf:80ff:fffe',
        '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
      ],
    };
    const publicOnes = new Set([
      '::8.8.8.8',
      '::ffff:8.8.8.8',
      '::ffff:0:808:808',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ]);
    for (const [form, addresses] of Object.entries(carrying)) {
      for (const address of addresses) expect(isPublicAddress(address), `${form} ${address}`).toBe(publicOnes.has(address));
    }
    // Teredo with a private server; NAT64's local-use prefix (RFC 8215), whose hosts are the network's own.
    expect(isPublicAddress('2001:0:a00:1:8000:63bf:f7f7:f7f7')).toBe(false);
    expect(isPublicAddress('64:ff9b:1::808:808')).toBe(false);
  });

  it('refuses loopback, private and link-local targets, literal or resolved, before connecting', async () => {
    const fetcher = createFetcher({ allowPrivateNetwork: false });
    try {
      for (const url of [
        `${base}/hello`,
        'http://10.0.0.1/x',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/',
        'http://[::ffff:7f00:1]/',
        `http://[::127.0.0.1]:${(server.address() as AddressInfo).port}/hello`,
        `http://[::ffff:127.0.0.1]:${(server.address() as AddressInfo).port}/hello`,
        'http://[::a9fe:a9fe]/latest/meta-data',
        'http://[::ffff:10.0.0.1]/',
        'http://[::ffff:0:7f00:1]/',
        'http://[64:ff9b::7f00:1]/',
        'http://[64:ff9b::169.254.169.254]/',
        'http://[2002:7f00:1::1]/',
        'http://[2002:c0a8:101::1]/',
        'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/',
      ]) {
        expect(await failure(fetcher.get(url)), url).toMatchObject({ code: 'PRIVATE_ADDRESS' });
      }
      const port = (server.address() as AddressInfo).port;
      expect(await failure(fetcher.get(`http://localhost:${port}/hello`))).toMatchObject({
        code: 'PRIVATE_ADDRESS',
        message: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address\.$/),
      });
      expect(await failure(fetcher.get('file:///etc/passwd'))).toMatchObject({ code: 'BAD_URL' });
      expect(await failure(fetcher.get('not a url'))).toMatchObject({ code: 'BAD_URL' });
    } finally {
      await fetcher.close();
    }
  });

  it('with private networks allowed: fetches, follows redirects up to the limit, and caps time and size', async () => {
    const fetcher = createFetcher({ allowPrivateNetwork: true });
    try {
      const hello = await fetcher.get(`${base}/to-hello`);
      expect(hello).toMatchObject({ url: `${base}/hello`, status: 200, contentType: 'text/plain' });
      expect(hello.body.toString()).toBe('hello');
      // The same loopback server through the IPv4-mapped form of its address: refused above, reached here.
      const mapped = await fetcher.get(`http://[::ffff:127.0.0.1]:${(server.address() as AddressInfo).port}/hello`);
      expect(mapped.body.toString()).toBe('hello');
      expect(await failure(fetcher.get(`${base}/redirect`, { maxRedirects: 3 }))).toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
      expect(await failure(fetcher.get(`${base}/slow`, { timeoutMs: 200 }))).toMatchObject({ code: 'TIMEOUT' });
      expect(await failure(fetcher.get(`${base}/big`, { maxBytes: 50_000 }))).toMatchObject({ code: 'TOO_LARGE' });
      expect(await failure(fetcher.get(`${base}/missing`))).toMatchObject({
        code: 'HTTP_STATUS',
        message: `${base}/ answered 404.`.replace('/ answered', ' answered'),
      });
    } finally {
      await fetcher.close();
    }
  });

  it('tells a wait past the idle timeout as TIMEOUT, before the exchange’s own, and other failures as NETWORK', async () => {
    // Real TCP servers: one that accepts and never answers, one that sends headers then stalls the body, one that hangs up.
    const sockets = new Set<net.Socket>();
    const tcpServer = (onRequest: (socket: net.Socket) => void) =>
      net.createServer((socket) => {
        sockets.add(socket);
        socket.once('data', () => onRequest(socket));
      });
    const servers = {
      silent: tcpServer(() => {}),
      stalling: tcpServer((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a"')),
      hangingUp: tcpServer((socket) => socket.destroy()),
    };
    const ports: Record<string, number> = {};
    for (const [name, server] of Object.entries(servers)) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      ports[name] = (server.address() as AddressInfo).port;
    }
    const fetcher = createFetcher({ allowPrivateNetwork: true, idleTimeoutMs: 300 });
    try {
      const url = (name: string) => `http://127.0.0.1:${ports[name]}/openapi.json`;
      const started = performance.now();
      expect(await failure(fetcher.get(url('silent'), { timeoutMs: 30_000 }))).toEqual({
        code: 'TIMEOUT',
        message: `http://127.0.0.1:${ports.silent} did not answer within 300 ms.`,
      });
      expect(await failure(fetcher.get(url('stalling'), { timeoutMs: 30_000 }))).toEqual({
        code: 'TIMEOUT',
        message: `http://127.0.0.1:${ports.stalling} sent nothing more for 300 ms.`,
      });
      const streamed = await fetcher.request(url('stalling'), { timeoutMs: 30_000 });
      expect(
        await failure(
          (async () => {
            for await (const _chunk of streamed.body);
          })(),
        ),
      ).toMatchObject({ code: 'TIMEOUT' });
      expect(performance.now() - started).toBeLessThan(10_000);
      // The exchange's timeout, when it is the shorter, is told the same way.
      expect(await failure(fetcher.get(url('silent'), { timeoutMs: 100 }))).toEqual({
        code: 'TIMEOUT',
        message: `http://127.0.0.1:${ports.silent} did not answer within 100 ms.`,
      });
      expect(await failure(fetcher.get(url('hangingUp')))).toMatchObject({ code: 'NETWORK' });
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      expect(await failure(fetcher.get(`http://127.0.0.1:${closedPort}/`))).toEqual({
        code: 'NETWORK',
        message: `http://127.0.0.1:${closedPort} could not be reached (ECONNREFUSED).`,
      });
    } finally {
      await fetcher.close();
      for (const socket of sockets) socket.destroy();
      for (const server of Object.values(servers)) server.close();
    }
  });

  it('sends credentials of the URL as Basic authorization to its origin, and never repeats them in errors', async () => {
    const fetcher = createFetcher({ allowPrivateNetwork: true });
    try {
      const port = (server.address() as AddressInfo).port;
      const authorized = await fetcher.get(`http://us%40er:s3cret@127.0.0.1:${port}/echo-authorization`);
      expect(authorized.body.toString()).toBe(`Basic ${Buffer.from('us@er:s3cret').toString('base64')}`);
      const error = await failure(fetcher.get(`http://user:s3cret@127.0.0.1:${port}/missing`));
      expect(error.message).not.toContain('s3cret');
      expect(error.message).not.toContain('user');
      const unreachable = await failure(fetcher.get('http://user:s3cret@127.0.0.1:1/'));
      expect(unreachable).toMatchObject({ code: 'NETWORK' });
      expect(unreachable.message).not.toContain('s3cret');
    } finally {
      await fetcher.close();
    }
  });
});
