// npm run -s measure:idle -- [--runs N] [--settle-ms N] [--node-arg ARG]... [--transpiled] [--keep-data]
//
// The service's memory before its first request: starts the product as `npm start` does (package.json's start
// command; the embedded PostgreSQL under a data directory of its own, or DATABASE_URL's server when it is set), waits
// for its "listening" line and for /health/ready, lets it settle, and prints its start-up time and, from
// /proc/<pid>/status, its resident memory now (VmRSS, split into anonymous and file-backed) and at its peak (VmHWM).
// Only the service's own process is counted: the embedded PostgreSQL's processes are not its memory.
//
// --runs N        start it N times (default 3) and print each run and the median.
// --settle-ms N   how long it idles after it answers before the reading (default 3000).
// --node-arg ARG  an option for the service's node (repeatable): --heap-prof, --heapsnapshot-signal=SIGUSR2, ...
// --transpiled    run the TypeScript transpiled by esbuild into a temporary directory with plain `node`, to tell
//                 what tsx costs at run time.
// --keep-data     keep the embedded database's directory (under the system's temporary directory) for the next run.
//
// Linux only (/proc).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { transform } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'settle-ms': { type: 'string', default: '3000' },
    'node-arg': { type: 'string', multiple: true, default: [] },
    transpiled: { type: 'boolean', default: false },
    'keep-data': { type: 'boolean', default: false },
  },
});

interface Reading {
  startupMs: number;
  rssMiB: number;
  anonMiB: number;
  fileMiB: number;
  hwmMiB: number;
  heapUsedMiB?: number;
}

/** Fields of /proc/<pid>/status, in MiB. */
function memoryOf(pid: number): { rss: number; anon: number; file: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile'), hwm: kib('VmHWM') };
}

/** The process tree under `pid`, as [pid, command name] pairs, the root first. */
function processTree(pid: number): [number, string][] {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      names.set(Number(entry), name);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // A process that ended while the table was read.
    }
  }
  const tree: [number, string][] = [];
  const visit = (id: number) => {
    tree.push([id, names.get(id) ?? '?']);
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** The start command of package.json as argv, with `node` being this node. */
function startCommand(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [program, ...args] = scripts.start.split(/\s+/);
  if (program !== 'node') throw new Error(`package.json's start is not a node command: ${scripts.start}`);
  return args;
}

/** src/ and rest/ transpiled file by file into a temporary copy of the project (node_modules and prisma/ linked). */
async function transpiledCopy(): Promise<string> {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'docs-api-transpiled-'));
  const transpile = async (directory: string) => {
    for (const entry of readdirSync(path.join(root, directory), { withFileTypes: true, recursive: true })) {
      const source = path.join(entry.parentPath, entry.name);
      const relative = path.relative(root, source);
      if (!entry.isFile()) continue;
      mkdirSync(path.dirname(path.join(copy, relative)), { recursive: true });
      if (!entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) {
        cpSync(source, path.join(copy, relative));
        continue;
      }
      const { code } = await transform(readFileSync(source, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20', sourcefile: source });
      writeFileSync(path.join(copy, relative.replace(/\.ts$/, '.js')), code);
    }
  };
  await transpile('src');
  await transpile('rest');
  cpSync(path.join(root, 'package.json'), path.join(copy, 'package.json'));
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  symlinkSync(path.join(root, 'prisma'), path.join(copy, 'prisma'));
  return copy;
}

async function measureOnce(args: string[], cwd: string, env: NodeJS.ProcessEnv, settleMs: number): Promise<Reading> {
  const started = performance.now();
  const child = spawn(process.execPath, [...values['node-arg'], ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (!line.startsWith('{')) continue;
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'listening' && entry.url) resolve(entry.url);
        }
      });
      void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${stderr}`)));
    });
    const startupMs = performance.now() - started;
    const ready = await fetch(`${url}/health/ready`);
    if (!ready.ok) throw new Error(`/health/ready answered ${ready.status}`);
    await ready.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    // The service is the deepest node process of the tree (a launcher may run it as a child); PostgreSQL's are not node.
    const nodes = processTree(child.pid!).filter(([, name]) => name === 'node' || name.startsWith('node'));
    const [service] = nodes.at(-1)!;
    const memory = memoryOf(service);
    return { startupMs: Math.round(startupMs), rssMiB: memory.rss, anonMiB: memory.anon, fileMiB: memory.file, hwmMiB: memory.hwm };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const mib = (n: number) => `${n.toFixed(1)} MiB`;

const copy = values.transpiled ? await transpiledCopy() : undefined;
const cwd = copy ?? root;
const args = copy ? ['src/main.js'] : startCommand();
const dataDir = path.join(os.tmpdir(), 'docs-api-measure-idle');
const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'info', DATA_DIR: dataDir };
try {
  if (!process.env.DATABASE_URL && !existsSync(dataDir)) {
    // The first start of a data directory creates the cluster and migrates it: not what a start costs.
    await measureOnce(args, cwd, env, 0);
  }
  const readings: Reading[] = [];
  for (let run = 1; run <= Number(values.runs); run++) {
    const reading = await measureOnce(args, cwd, env, Number(values['settle-ms']));
    readings.push(reading);
    console.log(
      `run ${run}: start-up ${reading.startupMs} ms, RSS ${mib(reading.rssMiB)} (anonymous ${mib(reading.anonMiB)}, files ${mib(reading.fileMiB)}), peak ${mib(reading.hwmMiB)}`,
    );
  }
  const summary = {
    command: `node ${[...values['node-arg'], ...args].join(' ')}${copy ? ' (transpiled by esbuild)' : ''}`,
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
    startupMs: median(readings.map((r) => r.startupMs)),
    idleRssMiB: Math.round(median(readings.map((r) => r.rssMiB))),
    anonymousMiB: Math.round(median(readings.map((r) => r.anonMiB))),
    fileBackedMiB: Math.round(median(readings.map((r) => r.fileMiB))),
    peakRssMiB: Math.round(median(readings.map((r) => r.hwmMiB))),
  };
  console.log(JSON.stringify(summary));
} finally {
  if (copy) rmSync(copy, { recursive: true, force: true });
  if (!values['keep-data'] && !process.env.DATABASE_URL) {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
