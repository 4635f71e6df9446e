// A Git smart-HTTP server on loopback for the tests: a Node HTTP server that runs `git http-backend` (CGI) over bare
// repositories the tests create, with basic authentication when asked for. The tests write repositories with the git
// binary (the product never runs it) and read what the service pushed with isomorphic-git.
import { execFileSync, spawn } from 'node:child_process';
import fs, { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';

export interface GitServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The URL of a repository, with credentials when given. */
  urlOf(name: string, credentials?: { username: string; password: string }): string;
  /** A bare repository with one commit of these files on `branch`, pushable over HTTP. */
  createRepository(name: string, files: Record<string, string | Buffer>, branch?: string): string;
  /** Commits these files (null deletes one) on top of the branch, as someone else would; returns the commit. */
  commit(name: string, files: Record<string, string | Buffer | null>, message: string, branch?: string): string;
  /**
   * Commits a file of `bytes` zero bytes at the top of the branch. git writes it from a sparse file, streaming (a file
   * above core.bigFileThreshold goes straight into a pack), so it takes neither disk nor memory: about 1 KB a MB.
   */
  commitZeros(name: string, file: string, bytes: number, branch?: string): string;
  /** The bytes of the repository's objects on disk (its packs and loose objects). */
  sizeOnDisk(name: string): number;
  /** The branch's commit, or null. */
  head(name: string, branch?: string): Promise<string | null>;
  /** A commit read with isomorphic-git: its message, parents and files (path to text). */
  read(name: string, commit: string): Promise<{ message: string; parents: string[]; files: Map<string, Buffer> }>;
  /** Authorization headers the server received. */
  authorizations: string[];
  close(): Promise<void>;
}

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Someone', GIT_AUTHOR_EMAIL: 'someone@example.com' };
const run = (args: string[], cwd?: string, input?: string) =>
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...GIT_ENV, GIT_COMMITTER_NAME: 'Someone', GIT_COMMITTER_EMAIL: 'someone@example.com' },
    input,
    stdio: 'pipe',
  }).toString();

/** The status and headers of a CGI answer, and where its body starts; null until the blank line has come. */
function cgiHead(buffer: Buffer): { status: number; headers: Record<string, string>; bodyAt: number } | null {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return null;
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of buffer.subarray(0, end).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
    else headers[name] = value;
  }
  return { status, headers, bodyAt: end + 4 };
}

export async function serveGit(options: { username?: string; password?: string } = {}): Promise<GitServer> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'git-server-'));
  const authorizations: string[] = [];
  const expected = options.username ? `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}` : null;
  const server = http.createServer((req, res) => {
    if (req.headers.authorization) authorizations.push(req.headers.authorization);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('Authentication required');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: options.username ?? 'anonymous',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        CONTENT_LENGTH: req.headers['content-length'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        GATEWAY_INTERFACE: 'CGI/1.1',
        SERVER_PROTOCOL: 'HTTP/1.1',
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const parsed = cgiHead(head);
      if (!parsed) return;
      started = true;
      res.writeHead(parsed.status, parsed.headers);
      res.write(head.subarray(parsed.bodyAt));
    });
    child.stdout.on('end', () => (started ? res.end() : res.writeHead(502).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bare = (name: string) => path.join(root, `${name}.git`);

  const commit = (name: string, files: Record<string, string | Buffer | null>, message: string, branch = 'main') => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'git-work-'));
    try {
      run(['clone', '--quiet', bare(name), work]);
      if (run(['branch', '--list', '--remotes', `origin/${branch}`], work).trim()) run(['checkout', '--quiet', branch], work);
      else run(['checkout', '--quiet', '--orphan', branch], work);
      for (const [file, content] of Object.entries(files)) {
        const at = path.join(work, file);
        if (content === null) fs.rmSync(at, { force: true });
        else {
          fs.mkdirSync(path.dirname(at), { recursive: true });
          fs.writeFileSync(at, content);
        }
      }
      run(['add', '--all'], work);
      run(['commit', '--quiet', '--allow-empty', '-m', message], work);
      run(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], work);
      return run(['rev-parse', 'HEAD'], work).trim();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };

  return {
    origin,
    authorizations,
    urlOf: (name, credentials) => {
      const url = new URL(`${origin}/${name}.git`);
      if (credentials) {
        url.username = encodeURIComponent(credentials.username);
        url.password = encodeURIComponent(credentials.password);
      }
      return url.toString();
    },
    createRepository(name, files, branch = 'main') {
      run(['init', '--quiet', '--bare', '--initial-branch', branch, bare(name)]);
      run(['config', 'http.receivepack', 'true'], bare(name));
      return commit(name, files, 'Initial content', branch);
    },
    commit,
    commitZeros(name, file, bytes, branch = 'main') {
      const gitdir = bare(name);
      const scratch = mkdtempSync(path.join(os.tmpdir(), 'git-zeros-'));
      try {
        const zeros = path.join(scratch, 'zeros');
        fs.writeFileSync(zeros, '');
        fs.truncateSync(zeros, bytes);
        // Served without holding it whole either: upload-pack streams objects above the threshold.
        run(['config', 'core.bigFileThreshold', '1m'], gitdir);
        const blob = run(['-c', 'core.compression=9', 'hash-object', '-w', zeros], gitdir).trim();
        const parent = run(['rev-parse', `refs/heads/${branch}`], gitdir).trim();
        const tree = run(['mktree'], gitdir, `${run(['ls-tree', parent], gitdir)}100644 blob ${blob}\t${file}\n`).trim();
        const commit = run(['commit-tree', tree, '-p', parent, '-m', `Add ${file}`], gitdir).trim();
        run(['update-ref', `refs/heads/${branch}`, commit], gitdir);
        return commit;
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    sizeOnDisk(name) {
      const objects = path.join(bare(name), 'objects');
      return fs
        .readdirSync(objects, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .reduce((total, entry) => total + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
    },
    async head(name, branch = 'main') {
      try {
        return await git.resolveRef({ fs, gitdir: bare(name), ref: `refs/heads/${branch}` });
      } catch {
        return null;
      }
    },
    async read(name, oid) {
      const gitdir = bare(name);
      const { commit: read } = await git.readCommit({ fs, gitdir, oid });
      const files = new Map<string, Buffer>();
      const walk = async (tree: string, prefix: string) => {
        for (const entry of (await git.readTree({ fs, gitdir, oid: tree })).tree) {
          const at = prefix ? `${prefix}/${entry.path}` : entry.path;
          if (entry.type === 'tree') await walk(entry.oid, at);
          else files.set(at, Buffer.from((await git.readBlob({ fs, gitdir, oid: entry.oid })).blob));
        }
      };
      await walk(read.tree, '');
      return { message: read.message, parents: read.parent, files };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
