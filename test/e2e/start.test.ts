// What a new user meets: `npm start` on an empty data directory runs an embedded PostgreSQL, prints a working token
// once, lets the admin CLI share the running database, and stops cleanly on SIGTERM, even one sent while it starts.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { npmScript } from '../support/npm-script.js';

// The service and the admin command run as `npm start` and `npm run admin` run them: the build, with plain node.
const { command: node, args: startArguments, env: startVariables, root } = await npmScript('start');
const admin = await npmScript('admin');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'start-test-'));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the service with the embedded database (DATABASE_URL removed) and waits until it listens. */
async function start(port: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...startVariables, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  const child = spawn(node, startArguments, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const server = { child, output: () => output, exited };
  started.push(server);
  const deadline = Date.now() + 60_000;
  while (!output.includes('"msg":"listening"')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}

/** Servers a failed test left running: stopped before their data goes, so that no PostgreSQL outlives the test. */
const started: Started[] = [];
afterAll(async () => {
  for (const server of started.filter((s) => s.child.exitCode === null)) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on a fresh machine', () => {
  it('bootstraps once, serves with the printed token, shares its database with the CLI, and stops cleanly', async () => {
    const port = await freePort();
    const first = await start(port);
    const token = /API token \(shown once, keep it safe\): (dpa_\w+)/.exec(first.output())?.[1];
    expect(token).toBeDefined();
    const tokenId = /Its id, to revoke it: npm run -s admin -- token revoke --id (\w+)\n/.exec(first.output())?.[1];
    expect(tokenId).toMatch(/^[0-9A-Za-z]{20}$/);
    const orgs = await fetch(`http://127.0.0.1:${port}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
    expect(orgs.status).toBe(200);
    expect((await orgs.json()).count).toBe(1);

    // The CLI attaches to the server's embedded PostgreSQL rather than starting a second one.
    const env: NodeJS.ProcessEnv = { ...process.env, ...admin.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const cli = await promisify(execFile)(admin.command, [...admin.args, 'user', 'create', '--email', 'cli@example.com'], {
      cwd: root,
      env,
    });
    expect(JSON.parse(cli.stdout)).toMatchObject({ object: 'user', email: 'cli@example.com' });
    const tokens = await promisify(execFile)(admin.command, [...admin.args, 'token', 'list'], { cwd: root, env });
    expect(JSON.parse(tokens.stdout)).toEqual([
      expect.objectContaining({ id: tokenId, label: 'bootstrap', email: 'admin@example.com', lastUsedAt: expect.any(String) }),
    ]);

    // A request sent right before SIGTERM still gets its answer.
    const inFlight = fetch(`http://127.0.0.1:${port}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // A second start finds its data and prints no token.
    const second = await start(port);
    expect(second.output()).not.toContain('API token');
    const again = await fetch(`http://127.0.0.1:${port}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('on a signal during start-up, finishes starting, then stops cleanly', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...startVariables,
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    delete env.DATABASE_URL;
    const child = spawn(node, startArguments, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const server: Started = { child, output: () => output, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
    started.push(server);
    let output = '';
    let signalled = false;
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      // The database is up and the HTTP server and workers are not yet: the middle of start-up.
      if (!signalled && output.includes('"msg":"database ready"')) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    expect(await server.exited).toBe(0);
    expect(output).toContain('"msg":"stopping once start-up has finished"');
    expect(output.indexOf('"msg":"listening"')).toBeLessThan(output.indexOf('"msg":"stopped"'));
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('on a busy port, says so in one line, exits non-zero and leaves no PostgreSQL running', async () => {
    const busy = net.createServer();
    const port = await new Promise<number>((resolve) =>
      busy.listen(0, '127.0.0.1', () => resolve((busy.address() as net.AddressInfo).port)),
    );
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, ...startVariables, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
      delete env.DATABASE_URL;
      const failed = await promisify(execFile)(node, startArguments, { cwd: root, env }).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim()).toBe(`Port ${port} is in use on 127.0.0.1; set PORT to a free port.`);
      expect(failed?.stdout).toBe('');
      expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    } finally {
      busy.close();
    }
  }, 60_000);

  it('refuses a bad setting in one line, before starting anything', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...startVariables, PURGE_INTERVAL_MINUTES: '0', DATA_DIR: dataDir };
    const failed = await promisify(execFile)(node, startArguments, { cwd: root, env }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr.trim()).toBe('Invalid configuration: PURGE_INTERVAL_MINUTES must be a whole number from 1 to 10080 (got "0").');
  }, 60_000);

  // Only root runs the embedded PostgreSQL as another OS user, and so only root can meet this.
  it.skipIf(process.getuid?.() !== 0)(
    'as root, a DATA_DIR the postgres OS user cannot reach is one line that says what to do',
    async () => {
      const privateDir = mkdtempSync(path.join(os.tmpdir(), 'private-'));
      chmodSync(privateDir, 0o700);
      try {
        const env: NodeJS.ProcessEnv = { ...process.env, ...startVariables, DATA_DIR: path.join(privateDir, 'data'), LOG_LEVEL: 'warn' };
        delete env.DATABASE_URL;
        const failed = await promisify(execFile)(node, startArguments, { cwd: root, env }).then(
          () => undefined,
          (error: { code: number; stderr: string }) => error,
        );
        expect(failed?.code).toBe(1);
        expect(failed?.stderr.trim()).toBe(
          `Start-up failed: DATA_DIR ${path.join(privateDir, 'data')} is inside ${privateDir}, which the postgres OS user cannot enter ` +
            '(the embedded PostgreSQL runs as postgres, since PostgreSQL refuses to run as root): set DATA_DIR to a directory ' +
            'outside it, e.g. /var/lib/docs-platform-api, or set DATABASE_URL.',
        );
      } finally {
        rmSync(privateDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
