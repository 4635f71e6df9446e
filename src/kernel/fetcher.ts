// The one way the service fetches from the network (files from URLs, imports, OpenAPI sources, link checks, Git
// transfers, webhooks): http and https only, one timeout for the whole exchange, a cap on the body, redirects followed
// by hand with every hop checked, and no connection to a loopback, private, link-local or otherwise non-public
// address, nor to an IPv6 address that carries one (IPv4-mapped, NAT64, 6to4, ...). The check runs on the addresses
// a name resolves to, when the connection is made (so a name that resolves differently the second time cannot slip
// past), and on literal addresses before. ALLOW_PRIVATE_NETWORK=true lifts that refusal, for tests and intranets.
// Besides the exchange's timeout, no wait may pass the idle timeout (FETCH_IDLE_TIMEOUT_SECONDS): for a connection,
// for the answer's headers, between two pieces of its body. Either way the failure is a TIMEOUT, never NETWORK.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';

export type FetchFailure = 'BAD_URL' | 'PRIVATE_ADDRESS' | 'TIMEOUT' | 'TOO_LARGE' | 'TOO_MANY_REDIRECTS' | 'HTTP_STATUS' | 'NETWORK';

/** A fetch that did not succeed; `message` names the URL's host, never its credentials. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface FetchOptions {
  /** For the whole exchange, redirects included. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
}

export interface Fetched {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  body: Buffer;
}

export interface RequestOptions extends FetchOptions {
  method?: 'GET' | 'POST';
  body?: Uint8Array;
}

/** An answer whose body is read as it arrives, for protocols that stream (Git's smart HTTP). */
export interface Streamed {
  url: string;
  status: number;
  statusText: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Capped at `maxBytes`, within the exchange's timeout; fails with a FetchError. */
  body: AsyncIterable<Uint8Array>;
}

/** Where a URL led and what it answered, for a check that reads no body. */
export interface Answered {
  url: string;
  status: number;
}

export interface Fetcher {
  /** GETs `url`; rejects with a FetchError on refusal, failure, or a status other than 2xx. */
  get(url: string, options?: FetchOptions): Promise<Fetched>;
  /**
   * Whether `url` answers, reading no body: HEAD, then GET when HEAD is not answered with 2xx (servers that refuse or
   * mishandle HEAD). Resolves with the final status whatever it is; rejects with a FetchError on refusal or failure.
   */
  check(url: string, options?: Omit<FetchOptions, 'maxBytes'>): Promise<Answered>;
  /**
   * Sends a request (a POST with its body, say) and resolves with the answer whatever its status, its body unread.
   * Redirects are followed for GET only. An `authorization` header is credentials, as those of the URL are: sent to
   * the URL's origin only.
   */
  request(url: string, options?: RequestOptions): Promise<Streamed>;
  close(): Promise<void>;
}

const DEFAULTS = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The well-known NAT64 prefix, 64:ff9b::/96 (RFC 6052); ipaddr.js's `rfc6052` range also holds the local-use /48. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The IPv4 addresses an IPv6 address carries, where a host or relay may route it to them: IPv4-mapped ::ffff:0:0/96
 * and translated ::ffff:0:0:0/96, IPv4-compatible ::/96 (deprecated, still routed by some stacks), NAT64, 6to4
 * 2002::/16, and Teredo's server and (inverted) client. Undefined for any other address.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(NAT64)) return [v4(p6, p7)];
  if (range === '6to4') return [v4(p1, p2)];
  if (range === 'teredo') return [v4(p2, p3), v4(p6 ^ 0xffff, p7 ^ 0xffff)];
  if (p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0) return [v4(p6, p7)];
  return undefined;
}

/**
 * Whether an address is public: ipaddr.js's `unicast` range; for an IPv6 address that carries IPv4 addresses
 * (embeddedIPv4), every one of those must be.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const embedded = embeddedIPv4(parsed as ipaddr.IPv6);
  if (embedded) return embedded.every((carried) => carried.range() === 'unicast');
  return parsed.range() === 'unicast';
}

/** Where a URL points, for messages: scheme and host, without credentials, path or query. */
const origin = (url: URL) => `${url.protocol}//${url.host}`;

/** The errors undici and the system give for a wait that ran out, and the wait they name. */
const WAITS_RUN_OUT: Record<string, 'connect' | 'headers' | 'body'> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  ETIMEDOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

export interface FetcherConfig {
  allowPrivateNetwork: boolean;
  /** The longest wait for a connection, for an answer's headers, or between two pieces of its body (default 10 s). */
  idleTimeoutMs?: number;
}

export function createFetcher(config: FetcherConfig): Fetcher {
  const idleTimeoutMs = config.idleTimeoutMs ?? DEFAULTS.timeoutMs;
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = config.allowPrivateNetwork ? undefined : addresses.find((found) => !isPublicAddress(found.address));
      if (refused || !addresses.length) {
        const message = `${hostname} resolves to ${refused?.address ?? 'no address'}, which is not a public address.`;
        return callback(Object.assign(new FetchError('PRIVATE_ADDRESS', message), { code: 'PRIVATE_ADDRESS' }), '', 0);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
  // undici and the agent are loaded by the first fetch, not at start-up: many instances fetch nothing for a long while.
  let client: Promise<{ agent: Agent; fetch: typeof import('undici').fetch }> | undefined;
  const undici = () =>
    (client ??= import('undici').then(({ Agent, fetch }) => ({
      fetch,
      agent: new Agent({ connect: { lookup, timeout: idleTimeoutMs }, headersTimeout: idleTimeoutMs, bodyTimeout: idleTimeoutMs }),
    })));

  /** The URL, if it may be fetched at all: http(s), and not a literal non-public address. */
  function checked(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new FetchError('BAD_URL', 'The URL is not a valid absolute URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchError('BAD_URL', `${url.protocol} URLs cannot be fetched; use http or https.`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !config.allowPrivateNetwork && !isPublicAddress(host)) {
      throw new FetchError('PRIVATE_ADDRESS', `${origin(url)} is not a public address.`);
    }
    return url;
  }

  /** The body, read up to the cap: a larger one is refused as soon as it passes it. */
  async function readCapped(body: AsyncIterable<Uint8Array> | null, maxBytes: number, url: URL): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new FetchError('TOO_LARGE', `${origin(url)} sent more than ${maxBytes} bytes.`);
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }

  /** Where an exchange has got to: the URL of its current hop, which messages name. */
  interface Exchange {
    url: URL;
    signal: AbortSignal;
    timeoutMs: number;
  }

  /**
   * Sends `method` to `text`, following redirects hop by hop (each hop checked; for GET and HEAD only), and returns
   * the final response, its body unread. Credentials in the URL, or an `authorization` header, are sent to that
   * origin only (fetch refuses them in URLs): a redirect elsewhere goes without them.
   */
  async function send(exchange: Exchange, method: 'GET' | 'HEAD' | 'POST', options: FetchOptions, body?: Uint8Array) {
    const { maxRedirects } = { ...DEFAULTS, ...options };
    let url = exchange.url;
    const credentialsOrigin = url.origin;
    const headers = Object.fromEntries(Object.entries(options.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
    const given = Object.entries(options.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    const authorization = url.username
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : given;
    url.username = '';
    url.password = '';
    for (let hop = 0; ; hop++) {
      const sent = { ...headers, ...(authorization && url.origin === credentialsOrigin && { authorization }) };
      const { agent, fetch } = await undici();
      const response = await fetch(url, { method, dispatcher: agent, redirect: 'manual', signal: exchange.signal, headers: sent, body });
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || !location || method === 'POST') return response;
      await response.body?.cancel();
      if (hop >= maxRedirects) throw new FetchError('TOO_MANY_REDIRECTS', `${origin(url)} redirected more than ${maxRedirects} times.`);
      url = checked(new URL(location, url).toString());
      exchange.url = url;
    }
  }

  /** A response body read as it arrives, capped, its failures (the exchange's timeout among them) told as FetchErrors. */
  async function* streamed(body: AsyncIterable<Uint8Array> | null, maxBytes: number, exchange: Exchange): AsyncGenerator<Uint8Array> {
    let size = 0;
    try {
      for await (const chunk of body ?? []) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new FetchError('TOO_LARGE', `${origin(exchange.url)} sent more than ${maxBytes} bytes.`);
        yield chunk;
      }
    } catch (error) {
      throw failureOf(error, exchange);
    }
  }

  /** What went wrong during an exchange, as a FetchError naming its hop. */
  function failureOf(error: unknown, exchange: Exchange): FetchError {
    if (error instanceof FetchError) return error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof FetchError) return cause;
    if (exchange.signal.aborted)
      return new FetchError('TIMEOUT', `${origin(exchange.url)} did not answer within ${exchange.timeoutMs} ms.`);
    // The cause's code, not its message, which may quote the URL.
    const code = (cause as { code?: string })?.code ?? (error as { code?: string }).code ?? (error as Error).name;
    const waited = WAITS_RUN_OUT[code];
    if (waited === 'connect') return new FetchError('TIMEOUT', `${origin(exchange.url)} did not accept a connection in time (${code}).`);
    if (waited === 'headers') return new FetchError('TIMEOUT', `${origin(exchange.url)} did not answer within ${idleTimeoutMs} ms.`);
    if (waited === 'body') return new FetchError('TIMEOUT', `${origin(exchange.url)} sent nothing more for ${idleTimeoutMs} ms.`);
    return new FetchError('NETWORK', `${origin(exchange.url)} could not be reached (${code}).`);
  }

  /** Runs `work` over a new exchange with `text`, turning whatever goes wrong into a FetchError naming its hop. */
  async function exchanging<T>(text: string, options: FetchOptions, work: (exchange: Exchange) => Promise<T>): Promise<T> {
    const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    const exchange: Exchange = { url: checked(text), signal: AbortSignal.timeout(timeoutMs), timeoutMs };
    try {
      return await work(exchange);
    } catch (error) {
      throw failureOf(error, exchange);
    }
  }

  return {
    get: (text, options = {}) =>
      exchanging(text, options, async (exchange) => {
        const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
        const response = await send(exchange, 'GET', options);
        const url = exchange.url;
        if (response.status < 200 || response.status > 299) {
          await response.body?.cancel();
          throw new FetchError('HTTP_STATUS', `${origin(url)} answered ${response.status}.`, response.status);
        }
        const declared = Number(response.headers.get('content-length'));
        if (declared > maxBytes) {
          await response.body?.cancel();
          throw new FetchError('TOO_LARGE', `${origin(url)} sends ${declared} bytes, more than ${maxBytes}.`);
        }
        const body = await readCapped(response.body as AsyncIterable<Uint8Array> | null, maxBytes, url);
        return { url: url.toString(), status: response.status, contentType: response.headers.get('content-type'), body };
      }),
    check: (text, options = {}) =>
      exchanging(text, options, async (exchange) => {
        const start = new URL(exchange.url);
        let response = await send(exchange, 'HEAD', options);
        if (response.status < 200 || response.status > 299) {
          await response.body?.cancel();
          exchange.url = start;
          response = await send(exchange, 'GET', options);
        }
        await response.body?.cancel();
        return { url: exchange.url.toString(), status: response.status };
      }),
    request: (text, options = {}) =>
      exchanging(text, options, async (exchange) => {
        const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
        const response = await send(exchange, options.method ?? 'GET', options, options.body);
        const declared = Number(response.headers.get('content-length'));
        if (declared > maxBytes) {
          await response.body?.cancel();
          throw new FetchError('TOO_LARGE', `${origin(exchange.url)} sends ${declared} bytes, more than ${maxBytes}.`);
        }
        return {
          url: exchange.url.toString(),
          status: response.status,
          statusText: response.statusText,
          headers: Object.fromEntries(response.headers),
          body: streamed(response.body as AsyncIterable<Uint8Array> | null, maxBytes, exchange),
        };
      }),
    close: async () => {
      if (client) await (await client).agent.close();
    },
  };
}
