// Git over HTTP(S) with isomorphic-git, nothing installed: a bare repository in a temporary directory per operation
// (removed afterwards, whatever happens), fetched into and pushed from. isomorphic-git's requests go through the
// service's guarded fetcher (fetcher.request): the SSRF guard, redirects checked hop by hop, and the operation's limits
// (one deadline and one byte budget across all its requests). The packs it fetches are checked as they arrive, before
// isomorphic-git inflates anything of them (pack.ts): objects too large, too many, or too large together are refused.
// Credentials are given to isomorphic-git only when the server asks for them (onAuth), and no message made here holds
// them.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git, { type GitHttpRequest, type GitHttpResponse, type HttpClient } from 'isomorphic-git';
import type { Config } from '../config.js';
import { FetchError, type Fetcher } from '../kernel/fetcher.js';
import { newTally, type PackLimits, PackRefused, type PackTally, UploadPackCheck } from './pack.js';
import { AUTHENTICATION_FAILED } from './state.js';

export interface GitLimits extends PackLimits {
  /** For all the transfers of one operation. */
  timeMs: number;
  /** Received by one operation, all requests together. */
  transferBytes: number;
}

/** The limits of an operation under this configuration (GIT_MAX_* settings). */
export const gitLimits = (config: Pick<Config, 'git'>): GitLimits => ({
  timeMs: 5 * 60_000,
  transferBytes: config.git.downloadBytes,
  objectBytes: config.git.objectBytes,
  inflatedBytes: config.git.inflatedBytes,
  objects: config.git.objects,
});

export interface Credentials {
  username: string;
  password: string;
}

/** Why an operation failed, in words safe to show: `timeout` when it ran out of time. */
export class GitFailure extends Error {
  constructor(
    message: string,
    readonly state: 'failure' | 'timeout' = 'failure',
  ) {
    super(message);
  }
}

export interface FileEntry {
  oid: string;
  /** 100644, 100755, 120000 (a symbolic link) or 160000 (a submodule's commit). */
  mode: string;
}

const AUTHOR = { name: 'Docs platform', email: 'git-sync@docs-platform.invalid' };

/** The bytes of a request body, which isomorphic-git hands over in pieces. */
async function collect(body: GitHttpRequest['body']): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * isomorphic-git's HTTP client over the guarded fetcher, within the operation's deadline and byte budget; the packs
 * it fetches are checked before it reads them, their objects counted in `tally`.
 */
function guardedHttp(fetcher: Fetcher, limits: GitLimits) {
  const deadline = performance.now() + limits.timeMs;
  let bytesLeft = limits.transferBytes;
  const tally = newTally();
  let failure: FetchError | GitFailure | null = null;
  const recorded = (error: unknown) => {
    if (error instanceof PackRefused) {
      failure ??= new GitFailure(error.message);
      return failure;
    }
    if (error instanceof FetchError) failure ??= error;
    return error;
  };
  /**
   * The body as it arrives, within the byte budget; a pack is checked a piece at a time before the piece is passed on.
   * A failure ends the body: isomorphic-git then fails the fetch without indexing what it has.
   */
  async function* counted(body: AsyncIterable<Uint8Array>, check: UploadPackCheck | null): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of body) {
        bytesLeft -= chunk.byteLength;
        if (bytesLeft < 0)
          throw new FetchError('TOO_LARGE', `The repository sent more than ${limits.transferBytes} bytes (GIT_MAX_DOWNLOAD_MB).`);
        check?.write(chunk);
        yield chunk;
      }
      check?.end();
    } catch (error) {
      throw recorded(error);
    }
  }
  const http: HttpClient = {
    async request({ url, method = 'GET', headers = {}, body }: GitHttpRequest): Promise<GitHttpResponse> {
      const timeoutMs = Math.floor(deadline - performance.now());
      try {
        if (timeoutMs <= 0) throw new FetchError('TIMEOUT', `The Git server did not answer within ${limits.timeMs} ms.`);
        const answer = await fetcher.request(url, {
          method: method === 'POST' ? 'POST' : 'GET',
          headers,
          body: await collect(body),
          timeoutMs,
          maxBytes: Math.max(0, bytesLeft),
        });
        return {
          url: answer.url,
          method,
          statusCode: answer.status,
          statusMessage: answer.statusText,
          headers: answer.headers,
          body: counted(answer.body, isUploadPack(method, url) ? new UploadPackCheck(limits, tally) : null),
        };
      } catch (error) {
        throw recorded(error);
      }
    },
  };
  return { http, tally, failure: () => failure };
}

/** A fetch's request for a pack (the answer to the others is a list of refs, or the outcome of a push). */
const isUploadPack = (method: string, url: string) => method === 'POST' && new URL(url).pathname.endsWith('/git-upload-pack');

/** A failure of isomorphic-git told in words safe to show (the URL it knows has no credentials; `ref` is ours). */
function failureOf(error: unknown, transport: FetchError | GitFailure | null, ref: string): GitFailure {
  if (error instanceof GitFailure) return error;
  if (transport instanceof GitFailure) return transport;
  if (transport) {
    if (transport.code === 'TIMEOUT') return new GitFailure(`The Git server did not answer in time: ${transport.message}`, 'timeout');
    if (transport.code === 'TOO_LARGE') return new GitFailure(`The transfer is too large: ${transport.message}`);
    return new GitFailure(`The Git server could not be reached: ${transport.message}`);
  }
  const { code, data } = (error ?? {}) as { code?: string; data?: { statusCode?: number; reason?: string } };
  switch (code) {
    case 'HttpError':
      if (data?.statusCode === 401 || data?.statusCode === 403) {
        return new GitFailure(`${AUTHENTICATION_FAILED}: the Git server refused the credentials (HTTP ${data.statusCode}).`);
      }
      return new GitFailure(`The Git server answered HTTP ${data?.statusCode ?? 'error'}.`);
    case 'UserCanceledError':
      return new GitFailure(`${AUTHENTICATION_FAILED}: the Git server asks for credentials; give them in the URL.`);
    case 'SmartHttpError':
    case 'EmptyServerResponseError':
    case 'ParseError':
      return new GitFailure('The URL does not serve a Git repository over smart HTTP.');
    case 'NotFoundError':
      return new GitFailure(`The ref ${ref} does not exist in the repository.`);
    case 'PushRejectedError':
      return data?.reason === 'not-fast-forward'
        ? new GitFailure(
            `The push to ${ref} was refused: the branch has commits that the export does not build on (not a fast-forward). Import them first, or export with "force".`,
          )
        : new GitFailure(`The push to ${ref} was refused by the Git server (${data?.reason ?? 'rejected'}).`);
    case 'GitPushError':
      return new GitFailure(`The push to ${ref} was refused by the Git server.`);
    default:
      return new GitFailure('The Git operation failed.');
  }
}

/** The entries of a tree object, each `<mode> <name>`, a zero byte and a 20-byte id, counted up to `atMost`. */
function entryCount(tree: Uint8Array, atMost: number): number {
  let count = 0;
  for (let at = tree.indexOf(0); at >= 0 && count < atMost; at = tree.indexOf(0, at + 21)) count++;
  return count;
}

/** A bare repository of one operation, with the remote it works with. */
export class Repository {
  private readonly transfer: ReturnType<typeof guardedHttp>;

  constructor(
    /** Where the repository is (removed when its operation ends). */
    readonly gitdir: string,
    private readonly credentials: Credentials | null,
    fetcher: Fetcher,
    limits: GitLimits,
  ) {
    this.transfer = guardedHttp(fetcher, limits);
  }

  /** What the packs fetched so far held, and how much of them the checks inflated. */
  get received(): Readonly<PackTally> {
    return this.transfer.tally;
  }

  private get remote() {
    return {
      fs,
      http: this.transfer.http,
      gitdir: this.gitdir,
      onAuth: () => (this.credentials ? { ...this.credentials } : { cancel: true }),
    };
  }

  /** The commit at `ref` on the remote, fetched (with `depth` commits of history, all by default); null when absent. */
  async fetch(ref: string, depth?: number): Promise<string | null> {
    const fetched = await this.transferring(ref, () =>
      git.fetch({ ...this.remote, remote: 'origin', ref, singleBranch: true, tags: false, ...(depth && { depth }) }).catch((error) => {
        if ((error as { code?: string }).code === 'NotFoundError') return null;
        throw error;
      }),
    );
    return fetched?.fetchHead ?? null;
  }

  /**
   * Runs a transfer, turning what goes wrong into a GitFailure. isomorphic-git reads some answers to their end
   * whatever their stream says (a failed read looks like the end of it): a failure of the transport is one even then.
   */
  private async transferring<T>(ref: string, work: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      throw failureOf(error, this.transfer.failure(), ref);
    }
    const failure = this.transfer.failure();
    if (failure) throw failureOf(failure, failure, ref);
    return result;
  }

  /** Whether the repository holds this commit (fetched with its history). */
  async hasCommit(oid: string): Promise<boolean> {
    try {
      await git.readCommit({ fs, gitdir: this.gitdir, oid });
      return true;
    } catch {
      return false;
    }
  }

  async readCommit(oid: string) {
    return (await git.readCommit({ fs, gitdir: this.gitdir, oid })).commit;
  }

  /**
   * Every file of a commit's tree by path from the top. At most `maxEntries` entries (files and folders, as often as
   * the tree names them) are read, each tree's counted before it is parsed, since a tree of a few MB names hundreds of
   * thousands; more are a GitFailure.
   */
  async files(commit: string, maxEntries: number): Promise<Map<string, FileEntry>> {
    const files = new Map<string, FileEntry>();
    let entriesLeft = maxEntries;
    const walk = async (tree: string, prefix: string) => {
      const { object } = await git.readObject({ fs, gitdir: this.gitdir, oid: tree, format: 'content' });
      entriesLeft -= entryCount(object as Uint8Array, entriesLeft + 1);
      if (entriesLeft < 0) throw new GitFailure(`The repository holds more than ${maxEntries} files and folders.`);
      for (const entry of (await git.readTree({ fs, gitdir: this.gitdir, oid: tree })).tree) {
        const at = prefix ? `${prefix}/${entry.path}` : entry.path;
        if (entry.type === 'tree') await walk(entry.oid, at);
        else files.set(at, { oid: entry.oid, mode: entry.mode });
      }
    };
    await walk((await this.readCommit(commit)).tree, '');
    return files;
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    return (await git.readBlob({ fs, gitdir: this.gitdir, oid })).blob;
  }

  writeBlob(bytes: Uint8Array): Promise<string> {
    return git.writeBlob({ fs, gitdir: this.gitdir, blob: bytes });
  }

  /** Writes the trees of these files (paths from the top) and returns the top one's id. */
  async writeTree(files: ReadonlyMap<string, FileEntry>): Promise<string> {
    const write = async (entries: [string, FileEntry][]): Promise<string> => {
      const folders = new Map<string, [string, FileEntry][]>();
      const tree: { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }[] = [];
      for (const [file, entry] of entries) {
        const slash = file.indexOf('/');
        if (slash < 0) tree.push({ ...entry, path: file, type: entry.mode === '160000' ? 'commit' : 'blob' });
        else folders.set(file.slice(0, slash), [...(folders.get(file.slice(0, slash)) ?? []), [file.slice(slash + 1), entry]]);
      }
      for (const [folder, inside] of folders) tree.push({ mode: '040000', path: folder, oid: await write(inside), type: 'tree' });
      return git.writeTree({ fs, gitdir: this.gitdir, tree });
    };
    return write([...files]);
  }

  /** A commit of `tree` after `parent` (none for the first), authored by `author` and committed by the service. */
  commit(tree: string, parent: string | null, message: string, author: { name: string; email: string }, at: Date): Promise<string> {
    const when = { timestamp: Math.floor(at.getTime() / 1000), timezoneOffset: 0 };
    return git.writeCommit({
      fs,
      gitdir: this.gitdir,
      commit: { tree, parent: parent ? [parent] : [], message, author: { ...author, ...when }, committer: { ...AUTHOR, ...when } },
    });
  }

  /** Pushes `commit` to `ref`, over what is there only when `force`. */
  async push(commit: string, ref: string, force: boolean): Promise<void> {
    const pushed = await this.transferring(ref, () => git.push({ ...this.remote, remote: 'origin', ref: commit, remoteRef: ref, force }));
    const refused = pushed.refs[ref];
    if (!pushed.ok || (refused && !refused.ok)) throw new GitFailure(`The push to ${ref} was refused by the Git server.`);
  }
}

/** Runs `work` with a repository in a new temporary directory, removed afterwards. */
export async function withRepository<T>(
  remote: { url: string; credentials: Credentials | null },
  fetcher: Fetcher,
  limits: GitLimits,
  work: (repository: Repository) => Promise<T>,
): Promise<T> {
  const gitdir = await mkdtemp(path.join(os.tmpdir(), 'git-sync-'));
  try {
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
    await git.addRemote({ fs, gitdir, remote: 'origin', url: remote.url });
    return await work(new Repository(gitdir, remote.credentials, fetcher, limits));
  } finally {
    await rm(gitdir, { recursive: true, force: true });
  }
}
