// The Git transport's limits and hygiene, below the job: one deadline and one byte budget for all the requests of an
// operation (a server that stalls times out, a repository larger than the budget is refused), failures told in words
// that do not hold the credentials, and the operation's repository removed afterwards whatever happened.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIT_LIMITS, GitFailure, withRepository } from '../../src/git-sync/remote.js';
import { scrubbed } from '../../src/git-sync/task.js';
import { createFetcher, type Fetcher } from '../../src/kernel/fetcher.js';
import { gitbookRepository } from './fixtures.js';
import { type GitServer, serveGit } from './git-server.js';

let server: GitServer;
let stalling: http.Server;
let stallingUrl: string;
let fetcher: Fetcher;

beforeAll(async () => {
  server = await serveGit();
  server.createRepository('docs', gitbookRepository());
  stalling = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
    res.write('001e# service=git-upload-pack\n');
  });
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  stallingUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/docs.git`;
  fetcher = createFetcher({ allowPrivateNetwork: true });
});
afterAll(async () => {
  await fetcher?.close();
  stalling?.closeAllConnections();
  await new Promise((resolve) => stalling?.close(resolve));
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
    const head = await withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, async (repository) => {
      gitdir = repository.gitdir;
      const commit = await repository.fetch('refs/heads/main', 1);
      expect(existsSync(gitdir)).toBe(true);
      return commit;
    });
    expect(head).toBe(await server.head('docs'));
    expect(existsSync(gitdir)).toBe(false);
    await expect(
      withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, async (repository) => {
        gitdir = repository.gitdir;
        throw new Error('broken');
      }),
    ).rejects.toThrow('broken');
    expect(existsSync(gitdir)).toBe(false);
  });

  it('times out when the server stalls, within the operation’s deadline', async () => {
    const started = Date.now();
    const failure = await failureOf(
      withRepository({ url: stallingUrl, credentials: null }, fetcher, (repository) => repository.fetch('refs/heads/main'), {
        ...GIT_LIMITS,
        timeMs: 500,
      }),
    );
    expect(failure.state).toBe('timeout');
    expect(failure.message).toMatch(/^The Git server did not answer in time/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a repository larger than the operation’s byte budget', async () => {
    const failure = await failureOf(
      withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, (repository) => repository.fetch('refs/heads/main'), {
        ...GIT_LIMITS,
        transferBytes: 300,
      }),
    );
    expect(failure).toMatchObject({ state: 'failure', message: expect.stringMatching(/^The transfer is too large: /) });
  });

  it('answers null for a branch the repository does not have', async () => {
    const missing = await withRepository({ url: server.urlOf('docs'), credentials: null }, fetcher, (repository) =>
      repository.fetch('refs/heads/missing'),
    );
    expect(missing).toBeNull();
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
