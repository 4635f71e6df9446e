// A package.json script as the process it starts, for the tests that run the product as a user does (`npm start`,
// `npm run worker`): its command split into argv and spawned directly, without npm and its shell in between (they
// would stand between the test and the process's signals and exit code). Those scripts run the build (dist/), and
// rebuild it first when a source changed; npmScript() brings it up to date beforehand, so that the process's output
// is the service's alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build, projectRoot, staleness } from '../../scripts/build.js';

export async function npmScript(name: string): Promise<{ command: string; args: string[]; root: string }> {
  const scripts = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  if (staleness()) await build();
  const [command, ...args] = scripts[name].split(' ');
  return { command, args, root: projectRoot };
}
