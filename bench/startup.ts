// Start-up of the service as `npm start` runs it (the built dist/src/main.js under plain node), on the benchmark's
// database: how long from spawning the process to its "listening" line (logged once the HTTP server, the scheduler
// and the job workers run), the CPU time it took (steadier than the wall time on a busy machine), and its RSS once
// started. Only the Node process is counted: the database is another
// process (DATABASE_URL), as the embedded PostgreSQL is under `npm start`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './stats.js';

export interface StartupResults {
  /** The command measured, as run from the project's root. */
  command: string;
  rounds: number;
  /** Median ms from spawn to the "listening" line. */
  startupMs: number;
  /** Median CPU time of the process (user and system), ms, until a second after it answered GET /health/ready. */
  startupCpuMs: number;
  /** Median RSS of the process, MiB, a second after it answered GET /health/ready with 200. */
  idleRssMiB: number;
  /** Median of the process's peak RSS (VmHWM), MiB, by then: what starting up took at most. */
  peakRssMiB: number;
  samples: Sample[];
}

/** A script of package.json that runs node, taken apart: `[NAME=value ...] node [node options] <module> [arguments]`. */
export interface NodeScript {
  /** The variables the script sets for the process (MALLOC_ARENA_MAX, say). */
  env: Record<string, string>;
  /** Node's own options (V8's included). */
  nodeOptions: string[];
  /** The module and its arguments, after node's options. */
  module: string[];
}

/** Node options written with their value as the next word. */
const TAKES_VALUE = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

export function nodeScript(root: string, name: string): NodeScript {
  const text = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[name];
  const words = text.split(' ');
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [variable, value] = words.shift()!.split('=');
    env[variable] = value;
  }
  if (words.shift() !== 'node') throw new Error(`package.json's ${name} script does not run node: ${text}`);
  let firstModule = 0;
  while (firstModule < words.length && words[firstModule].startsWith('-')) firstModule += TAKES_VALUE.has(words[firstModule]) ? 2 : 1;
  return { env, nodeOptions: words.slice(0, firstModule), module: words.slice(firstModule) };
}

/** The script as a command line, as package.json would write it. */
export const commandLine = ({ env, nodeOptions, module }: NodeScript): string =>
  [...Object.entries(env).map(([variable, value]) => `${variable}=${value}`), 'node', ...nodeOptions, ...module].join(' ');

interface Sample {
  startupMs: number;
  startupCpuMs: number;
  idleRssMiB: number;
  peakRssMiB: number;
}

const SETTLE_MS = 1000;

/** The process's resident memory now (VmRSS) and at its peak (VmHWM), in KiB. */
function rssKb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)![1]);
  return { now: field('VmRSS'), peak: field('VmHWM') };
}

/** utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms (USER_HZ is 100 on Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function startOnce(command: NodeScript, root: string, databaseUrl: string): Promise<Sample> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const env = {
    ...process.env,
    ...command.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SECRET_KEY: 'bench-start-up-secret-of-at-least-32-characters',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...command.nodeOptions, ...command.module], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk;
        const line = output.split('\n').find((l) => l.includes('"msg":"listening"'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk;
      });
      child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening:\n${output}`)));
    });
    const startupMs = performance.now() - spawnedAt;
    const ready = await fetch(`${url}/health/ready`);
    if (ready.status !== 200) throw new Error(`GET /health/ready answered ${ready.status} after start-up`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const rss = rssKb(child.pid!);
    return { startupMs, startupCpuMs: cpuMs(child.pid!), idleRssMiB: rss.now / 1024, peakRssMiB: rss.peak / 1024 };
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Starts the service `rounds` times, one after the other, and keeps the median of each figure. */
export async function measureStartup(command: NodeScript, root: string, databaseUrl: string, rounds: number): Promise<StartupResults> {
  const samples: Sample[] = [];
  for (let round = 0; round < rounds; round++) samples.push(await startOnce(command, root, databaseUrl));
  return {
    command: commandLine(command),
    rounds,
    startupMs: Math.round(median(samples.map((s) => s.startupMs))),
    startupCpuMs: Math.round(median(samples.map((s) => s.startupCpuMs))),
    idleRssMiB: Math.round(median(samples.map((s) => s.idleRssMiB))),
    peakRssMiB: Math.round(median(samples.map((s) => s.peakRssMiB))),
    samples: samples.map((s) => ({
      startupMs: Math.round(s.startupMs),
      startupCpuMs: s.startupCpuMs,
      idleRssMiB: Math.round(s.idleRssMiB),
      peakRssMiB: Math.round(s.peakRssMiB),
    })),
  };
}
