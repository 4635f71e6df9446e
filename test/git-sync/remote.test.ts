// The Git transport's limits and hygiene, below the job: one deadline and one byte budget for all the requests of an
// operation (a server that stalls times out, a repository larger than the budget is refused), the packs it fetches
// checked before isomorphic-git inflates them (an object or objects too large are refused at their headers, a header
// that lies while inflating, and nothing is indexed then), failures told in words that do not hold the credentials,
// and the operation's repository removed afterwards whatever happened.
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { GitFailure, gitLimits, withRepository } from '../../src/git-sync/remote.js';
import { scrubbed } from '../../src/git-sync/task.js';
import { createFetcher, type Fetcher } from '../../src/kernel/fetcher.js';
import { gitbookRepository } from './fixtures.js';
import { type GitServer, serveGit } from './git-server.js';
import { BLOB, type CraftedObject, packOf, uploadPackAnswer } from './packs.js';

const MB = 1024 * 1024;
let server: GitServer;
let stalling: http.Server;
let stallingUrl: string;
let lying: http.Server;
let lyingUrl: string;
let fetcher: Fetcher;
const LIMITS = gitLimits(loadConfig({}));
/** A blob announced as 100 bytes that inflates to 16 MB, made when first asked for (not to raise the peak RSS before). */
let lyingBlob: CraftedObject | undefined;
const lyingBlobOf = () => (lyingBlob ??= { type: BLOB, size: 100, data: zlib.deflateSync(Buffer.alloc(16 * MB)) });
const pktLine = (text: string) => `${(text.length + 4).toString(16).padStart(4, '0')}${text}`;

beforeAll(async () => {
  server = await serveGit();
  server.createRepository('docs', gitbookRepository());
  stalling = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
    res.write('001e# service=git-upload-pack\n');
  });
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  stallingUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/docs.git`;
  // A Git server that advertises a branch and answers its fetch with a pack whose blob lies about its size.
  lying = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
      const branch = `${'a'.repeat(40)} refs/heads/main\0multi_ack_detailed side-band-64k ofs-delta shallow no-done\n`;
      res.end(`${pktLine('# service=git-upload-pack\n')}0000${pktLine(branch)}0000`);
      return;
    }
    req.resume();
    res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-result' });
    res.end(uploadPackAnswer(packOf([lyingBlobOf()])));
  });
  await new Promise<void>((resolve) => lying.listen(0, '127.0.0.1', resolve));
  lyingUrl = `http://127.0.0.1:${(lying.address() as AddressInfo).port}/docs.git`;
  fetcher = createFetcher({ allowPrivateNetwork: true });
});
afterAll(async () => {
  await fetcher?.close();
  stalling?.closeAllConnections();
  await new Promise((resolve) => stalling?.close(resolve));
  await new Promise((resolve) => lying?.close(resolve));
  await server?.close();
});

const failureOf = async (work: Promise<unknown>): Promise<GitFailure> => {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(GitFailure);
    return error as GitFailure;
  }
  return expect.unreachable('it succeeded');
};

describe('a Git operation’s repository', () => {
  it('fetches a branch, and is removed afterwards, also when the work fails', async () => {
    let gitdir = '';
    const head = await withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, LIMITS, async (repository) => {
      gitdir = repository.gitdir;
      const commit = await repository.fetch('refs/heads/main', 1);
      expect(existsSync(gitdir)).toBe(true);
      // Every object checked (the commit, 8 trees, 12 files), inflated once, to what its header announced.
      expect(repository.received).toMatchObject({ packs: 1, objects: 21, inflatedBytes: repository.received.announcedBytes });
      return commit;
    });
    expect(head).toBe(await server.head('docs'));
    expect(existsSync(gitdir)).toBe(false);
    await expect(
      withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, LIMITS, async (repository) => {
        gitdir = repository.gitdir;
        throw new Error('broken');
      }),
    ).rejects.toThrow('broken');
    expect(existsSync(gitdir)).toBe(false);
  });

  it('times out when the server stalls, within the operation’s deadline', async () => {
    const started = Date.now();
    const failure = await failureOf(
      withRepository({ url: stallingUrl, credentials: null }, fetcher, { ...LIMITS, timeMs: 500 }, (repository) =>
        repository.fetch('refs/heads/main'),
      ),
    );
    expect(failure.state).toBe('timeout');
    expect(failure.message).toMatch(/^The Git server did not answer in time/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a repository larger than the operation’s byte budget', async () => {
    const failure = await failureOf(
      withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, { ...LIMITS, transferBytes: 300 }, (repository) =>
        repository.fetch('refs/heads/main'),
      ),
    );
    expect(failure).toMatchObject({ state: 'failure', message: expect.stringMatching(/^The transfer is too large: /) });
  });

  it('answers null for a branch the repository does not have', async () => {
    const missing = await withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, LIMITS, (repository) =>
      repository.fetch('refs/heads/missing'),
    );
    expect(missing).toBeNull();
  });
});

/**
 * Fetches the branch with these limits, expecting a GitFailure; the failure, what the check inflated, whether
 * isomorphic-git got as far as writing a pack (its first step after the download), and how far the process's peak
 * RSS rose.
 */
async function refusedFetch(url: string, limits: typeof LIMITS) {
  let inflatedBytes = -1;
  let packsWritten: string[] = [];
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  const failure = await failureOf(
    withRepository({ url, credentials: null }, fetcher, limits, async (repository) => {
      try {
        return await repository.fetch('refs/heads/main', 1);
      } finally {
        inflatedBytes = repository.received.inflatedBytes;
        packsWritten = readdirSync(`${repository.gitdir}/objects/pack`);
      }
    }),
  );
  return { failure, inflatedBytes, packsWritten, peakRise: process.resourceUsage().maxRSS * 1024 - peakBefore };
}

describe('the packs a fetch receives', () => {
  it('refuses a blob of 256 MB in a pack of a few hundred KB at its header, inflating nothing of it', async () => {
    // git hashes and compresses 256 MB: seconds, more on a busy machine.
    server.createRepository('zeros', { 'README.md': '# Zeros\n' });
    server.commitZeros('zeros', 'zeros.bin', 256 * MB);
    expect(server.sizeOnDisk('zeros')).toBeLessThan(MB);
    const { failure, inflatedBytes, packsWritten, peakRise } = await refusedFetch(server.urlOf('zeros'), { ...LIMITS, objectBytes: MB });
    expect(failure).toMatchObject({
      state: 'failure',
      message: 'The repository holds an object of 256 MB, more than the 1 MB one object may have (GIT_MAX_OBJECT_MB).',
    });
    // The commit, its tree and the README, nothing of the large blob.
    expect(inflatedBytes).toBeGreaterThan(0);
    expect(inflatedBytes).toBeLessThan(1024);
    expect(packsWritten).toEqual([]);
    expect(peakRise).toBeLessThan(64 * MB);
  }, 120_000);

  it('refuses objects that come to more than the cap together, before inflating the one that passes it', async () => {
    const files = Object.fromEntries([1, 2, 3].map((n) => [`part-${n}.md`, `# Part ${n}\n\n${`Line of part ${n}.\n`.repeat(50_000)}`]));
    server.createRepository('parts', files);
    const { failure, inflatedBytes, packsWritten } = await refusedFetch(server.urlOf('parts'), {
      ...LIMITS,
      objectBytes: MB,
      inflatedBytes: 2 * MB,
    });
    expect(failure.message).toBe('The repository’s objects come to more than the 2 MB one operation may inflate (GIT_MAX_IMPORT_MB).');
    expect(inflatedBytes).toBeLessThanOrEqual(2 * MB);
    expect(packsWritten).toEqual([]);
  });

  it('stops a blob whose header lies as soon as it inflates past what it announced', async () => {
    expect(lyingBlobOf().data.length).toBeLessThan(32 * 1024);
    const { failure, inflatedBytes, packsWritten } = await refusedFetch(lyingUrl, LIMITS);
    expect(failure.message).toBe('The Git server sent a damaged pack: an object inflates to more than the 100 bytes its header announces.');
    expect(inflatedBytes).toBeLessThanOrEqual(64 * 1024);
    expect(packsWritten).toEqual([]);
  });

  it('reads at most so many files and folders of a tree, counted before each tree is parsed', async () => {
    const failure = await failureOf(
      withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, LIMITS, async (repository) =>
        repository.files((await repository.fetch('refs/heads/main', 1))!, 5),
      ),
    );
    expect(failure.message).toBe('The repository holds more than 5 files and folders.');
  });
});

describe('scrubbing', () => {
  it('removes every spelling of the secret from a message', () => {
    const credentials = { username: 'bot', password: 'p@ss:w/rd' };
    const message = `p@ss:w/rd ${encodeURIComponent('p@ss:w/rd')} ${Buffer.from('p@ss:w/rd').toString('base64')} bot`;
    expect(scrubbed(message, credentials)).toBe('*** *** *** bot');
    expect(scrubbed('token ghp_123456 in it', { username: 'ghp_123456', password: '' })).toBe('token *** in it');
  });
});
