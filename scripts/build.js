// `npm run build` (and the last step of `npm install`): compiles the TypeScript of src/, rest/ and bench/ into
// dist/, one JavaScript file per source file (esbuild, no bundling: dynamic import() keeps loading modules on first
// use), each with a source map, so that `node --enable-source-maps` reports stack traces at the lines of the .ts
// files. Type-checking is `npm run lint`'s job, not the build's.
//
// Plain JavaScript, so that `npm start` can check the build without a TypeScript loader (scripts/run-dist.js).
// dist/build.json records what was built and when; the build is stale when a source file is newer than that, or
// when one was added or removed.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The directories compiled, relative to the project's root. */
const SOURCE_DIRECTORIES = ['src', 'rest', 'bench'];
const STAMP = 'build.json';

/** The project's root: this file is scripts/build.js. */
export const projectRoot = path.resolve(import.meta.dirname, '..');

/**
 * @param {string} root
 * @returns {string[]} the .ts files to compile, relative to `root`, sorted
 */
export function sourceFiles(root) {
  return SOURCE_DIRECTORIES.flatMap((directory) =>
    existsSync(path.join(root, directory))
      ? readdirSync(path.join(root, directory), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
          .map((file) => path.join(directory, file))
      : [],
  ).sort();
}

/**
 * Why dist/ is not the build of the sources as they are, or null when it is.
 * @param {string} root
 * @returns {string | null}
 */
export function staleness(root = projectRoot) {
  const stampFile = path.join(root, 'dist', STAMP);
  if (!existsSync(stampFile)) return 'there is no build';
  /** @type {{ startedAt: number, sources: string[] }} */
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  const sources = sourceFiles(root);
  const built = new Set(stamp.sources);
  const added = sources.find((file) => !built.has(file));
  if (added) return `${added} is new`;
  if (sources.length !== built.size) return `${stamp.sources.find((file) => !sources.includes(file))} was removed`;
  const changed = sources.find((file) => statSync(path.join(root, file)).mtimeMs > stamp.startedAt);
  return changed ? `${changed} changed` : null;
}

/**
 * Writes through a temporary name, so that a process loading dist/ while another rebuilds it (two tests starting
 * the service at once) reads each file whole, old or new.
 * @param {string} file
 * @param {Uint8Array | string} contents
 */
function writeWhole(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/**
 * Compiles every source file into dist/ and removes what an earlier build left of files that are gone.
 * @param {string} root
 * @returns {Promise<{ files: number, milliseconds: number }>}
 */
export async function build(root = projectRoot) {
  const startedAt = Date.now();
  const sources = sourceFiles(root);
  const esbuild = await import('esbuild');
  const outdir = path.join(root, 'dist');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: sources,
    outbase: '.',
    outdir,
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The mappings are all a stack trace needs: the .ts files themselves are beside the build.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    write: false,
  });
  await esbuild.stop();
  const written = new Set(result.outputFiles.map((output) => output.path));
  for (const output of result.outputFiles) writeWhole(output.path, output.contents);
  const leftOver = existsSync(outdir)
    ? readdirSync(outdir, { recursive: true, encoding: 'utf8' })
        .map((file) => path.join(outdir, file))
        .filter((file) => /\.js(\.map)?$/.test(file) && !written.has(file))
    : [];
  for (const file of leftOver) rmSync(file);
  writeWhole(path.join(outdir, STAMP), `${JSON.stringify({ startedAt, sources }, null, 2)}\n`);
  return { files: sources.length, milliseconds: Date.now() - startedAt };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { files, milliseconds } = await build();
  // On stderr: `npm run -s admin` prints JSON on stdout, and a rebuild before it must not mix into it.
  process.stderr.write(`Built ${files} files into dist/ in ${milliseconds} ms.\n`);
}
