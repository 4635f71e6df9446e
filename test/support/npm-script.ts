// A package.json script as the process it starts, for the tests that run the product as a user does (`npm start`,
// `npm run worker`): its command taken apart (bench/startup.ts) and spawned directly, without npm and its shell in
// between (they would stand between the test and the process's signals and exit code). Those scripts run the build
// (dist/), and rebuild it first when a source changed; npmScript() brings it up to date beforehand, so that the
// process's output is the service's alone.
import { nodeScript } from '../../bench/startup.js';
import { build, projectRoot, staleness } from '../../scripts/build.js';

/**
 * The script's process: `command` and `args` to spawn, with `env` (the variables the script sets) added to its own.
 * `nodeOptions` go after the script's own, before the module (a last `--import` runs its hooks first).
 */
export async function npmScript(
  name: string,
  nodeOptions: readonly string[] = [],
): Promise<{ command: string; args: string[]; env: Record<string, string>; root: string }> {
  if (staleness()) await build();
  const script = nodeScript(projectRoot, name);
  return { command: process.execPath, args: [...script.nodeOptions, ...nodeOptions, ...script.module], env: script.env, root: projectRoot };
}
