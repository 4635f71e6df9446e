// `node --import ./test/support/module-recorder.mjs ...`: records every module the process loads, ES modules through
// a loader hook (which sees each URL before it is loaded, whatever loader runs after it) and CommonJS ones from
// require's cache, and writes them on SIGUSR2 as one line on stderr: `loaded modules: ["file:///...", "/..."]`.
// Plain JavaScript, so that it runs in front of any start command, with or without a TypeScript loader. It must come
// after any other --import that registers hooks: the hooks registered last run first.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, nextLoad) {
  port.postMessage(url);
  return nextLoad(url, context);
}
`;

const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url));
port1.unref();
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { port: port2 }, transferList: [port2] });

const require = createRequire(import.meta.url);
process.on('SIGUSR2', () => {
  const modules = [...loaded, ...Object.keys(require.cache)];
  process.stderr.write(`loaded modules: ${JSON.stringify(modules)}\n`);
});
