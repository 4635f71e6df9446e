// Heavy libraries load on their feature's first use, not at start-up: the service, started as `npm start` starts it
// (on a database of its own), has loaded none of them once it listens, and loads a feature's when it is first used.
// What a process has loaded is recorded by test/support/module-recorder.mjs, given to its node with --import: ES
// modules through a loader hook, CommonJS ones from require's cache. A static import of pdfkit on any start-up path
// (schema, routes, services, jobs) fails this test.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { npmScript } from '../support/npm-script.js';

const root = path.resolve(import.meta.dirname, '../..');
const recorder = path.join(root, 'test/support/module-recorder.mjs');

/** The packages each feature loads when it is first used, and not before. */
const LOADED_ON_FIRST_USE: Record<string, readonly string[]> = {
  'the PDF export': ['pdfkit', 'fontkit', 'linkedom'],
  'the website import': ['@mozilla/readability', 'turndown', 'linkedom'],
  'SAML sign-in': ['@node-saml/node-saml', 'xml-crypto', '@xmldom/xmldom', 'xml2js'],
  'Git sync': ['isomorphic-git', 'pako'],
  'OpenAPI specifications': ['@readme/openapi-parser'],
  GraphiQL: ['@graphql-yoga/render-graphiql'],
  'GraphQL over HTTP': ['graphql-yoga', '@escape.tech/graphql-armor-max-depth'],
  'a REST route (its compiled operation)': ['graphql-jit'],
  'outbound requests': ['undici'],
  'e-mail': ['nodemailer'],
  'visitor tokens': ['jose'],
  'adaptive schemas': ['ajv'],
  'stored files': ['file-type', 'image-size'],
};

let database: TestDatabase;
let dataDir: string;
let child: ChildProcess;
let exited: Promise<number | null>;
let stdout = '';
let stderr = '';
let url: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'first-use-'));
  // The recorder as the last --import before the script, so that its hooks run first.
  const { command, args, env: variables } = await npmScript('start', ['--import', recorder]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...variables,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'info',
  };
  child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const listening = /"url":"([^"]+)","graphql":"[^"]+","msg":"listening"/.exec(stdout);
    if (listening) {
      url = listening[1];
      break;
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the service did not start:\n${stdout}\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  if (child?.exitCode === null) {
    child.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** What the service has loaded so far: the recorder's answer to SIGUSR2. */
async function loadedModules(): Promise<string[]> {
  const answered = stderr.split('loaded modules: ').length;
  child.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (stderr.split('loaded modules: ').length === answered) {
    if (Date.now() > deadline) throw new Error(`the recorder did not answer:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const line = stderr.split('loaded modules: ').at(-1)!.split('\n')[0];
  return JSON.parse(line) as string[];
}

const loads = (modules: readonly string[], name: string) => modules.some((module) => module.includes(`/node_modules/${name}/`));

describe('after start-up', () => {
  it('has loaded no library that a feature needs only when it is used', async () => {
    const modules = await loadedModules();
    // The recorder sees both kinds of module: our ES modules (built, or under a TypeScript loader) and CommonJS packages.
    expect(modules.some((module) => /\/(dist\/)?src\/app\.[jt]s$/.test(module))).toBe(true);
    expect(loads(modules, 'pg')).toBe(true);
    const loadedEarly = Object.entries(LOADED_ON_FIRST_USE).flatMap(([feature, names]) =>
      names.filter((name) => loads(modules, name)).map((name) => `${name} (${feature})`),
    );
    expect(loadedEarly).toEqual([]);
  });

  it('loads GraphiQL with its first page, and the PDF renderer with the first export', async () => {
    const graphiql = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    await graphiql.arrayBuffer();
    expect(loads(await loadedModules(), '@graphql-yoga/render-graphiql')).toBe(true);

    const token = /API token \(shown once, keep it safe\): (dpa_\w+)/.exec(stdout)?.[1];
    const organizationId = /created organization (\w+) owned by/.exec(stdout)?.[1];
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as { id: string };
    };
    const space = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
    expect(loads(await loadedModules(), 'pdfkit')).toBe(false);
    await call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf`);
    const modules = await loadedModules();
    expect(LOADED_ON_FIRST_USE['the PDF export'].filter((name) => !loads(modules, name))).toEqual([]);
  }, 60_000);
});
