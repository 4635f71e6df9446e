// The build (scripts/build.js) and how the npm scripts run it (scripts/run-dist.js), on a small project of their
// own in a temporary directory: a first run builds, a run on a fresh build does not, a changed, added or removed
// source rebuilds (and a removed one leaves no JavaScript behind), the module gets its arguments as if node ran it,
// and a stack trace names the TypeScript file and line.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/build.js';

const project = mkdtempSync(path.join(os.tmpdir(), 'build-test-'));

beforeAll(() => {
  mkdirSync(path.join(project, 'scripts'));
  for (const script of ['build.js', 'run-dist.js'])
    copyFileSync(path.join(projectRoot, 'scripts', script), path.join(project, 'scripts', script));
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(project, 'node_modules'));
  writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(path.join(project, 'src'));
  writeFileSync(
    path.join(project, 'src/main.ts'),
    "import { fail } from './fail.js';\n\nconst args: string[] = process.argv.slice(2);\nconsole.log(JSON.stringify(args));\nif (args[0] === 'fail') fail();\n",
  );
  writeFileSync(path.join(project, 'src/fail.ts'), "export function fail(): never {\n  throw new Error('failed in TypeScript');\n}\n");
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** `npm start` in that project: its scripts/run-dist.js running dist/src/main.js. */
async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = ['--enable-source-maps', 'scripts/run-dist.js', 'dist/src/main.js', ...args];
  return promisify(execFile)(process.execPath, argv, { cwd: project }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** Dates a file just after the last build started, as an edit after it leaves the file. */
function edit(file: string) {
  const { startedAt } = JSON.parse(readFileSync(path.join(project, 'dist/build.json'), 'utf8')) as { startedAt: number };
  const after = new Date(startedAt + 1);
  utimesSync(path.join(project, file), after, after);
}

describe('the build', () => {
  it('builds when there is none, then runs the module with its own arguments', async () => {
    const first = await run('a', 'b c');
    expect(first.stderr).toMatch(
      /^Rebuilding dist\/ \(there is no build\); `npm run build` does this alone\.\nBuilt 2 files into dist\/ in \d+ ms\.\n$/,
    );
    expect(first.stdout).toBe('["a","b c"]\n');
    expect(existsSync(path.join(project, 'dist/src/fail.js.map'))).toBe(true);
  });

  it('runs a fresh build without rebuilding', async () => {
    expect(await run()).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('rebuilds after a source changes, is added or is removed, and leaves no JavaScript of a removed one', async () => {
    edit('src/fail.ts');
    expect((await run()).stderr).toContain('Rebuilding dist/ (src/fail.ts changed)');
    writeFileSync(path.join(project, 'src/extra.ts'), 'export const extra = 1;\n');
    expect((await run()).stderr).toContain('Rebuilding dist/ (src/extra.ts is new)');
    expect(existsSync(path.join(project, 'dist/src/extra.js'))).toBe(true);
    rmSync(path.join(project, 'src/extra.ts'));
    expect((await run()).stderr).toContain('Rebuilding dist/ (src/extra.ts was removed)');
    expect(existsSync(path.join(project, 'dist/src/extra.js'))).toBe(false);
    expect(existsSync(path.join(project, 'dist/src/extra.js.map'))).toBe(false);
    expect((await run()).stderr).toBe('');
  });

  it('reports a stack trace at the lines of the TypeScript sources', async () => {
    const failed = await run('fail');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`at fail (${path.join(project, 'src/fail.ts')}:2:9)`);
    expect(failed.stderr).toContain(`${path.join(project, 'src/main.ts')}:5:`);
  });
});
