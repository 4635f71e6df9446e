// `node --enable-source-maps scripts/run-dist.js dist/<module>.js [arguments]`: how `npm start`, `npm run worker`,
// `npm run admin` and `npm run bench` run the build. When a source file changed since the last build (or there is
// none), it first rebuilds (npm run build, well under a second) in a separate process, saying so on stderr; then it
// runs the module in this same process, with the arguments after it, as `node dist/<module>.js [arguments]` would:
// one process, so that signals reach the service itself, and no TypeScript loader.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot, staleness } from './build.js';

const [target, ...rest] = process.argv.slice(2);
if (!target) {
  process.stderr.write('Usage: node --enable-source-maps scripts/run-dist.js dist/<module>.js [arguments]\n');
  process.exit(2);
}

const reason = staleness();
if (reason) {
  process.stderr.write(`Rebuilding dist/ (${reason}); \`npm run build\` does this alone.\n`);
  const built = spawnSync(process.execPath, [path.join(projectRoot, 'scripts/build.js')], { stdio: ['ignore', 2, 2] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const module = path.resolve(target);
process.argv = [process.argv[0], module, ...rest];
await import(pathToFileURL(module).href);
