// npx tsx scripts/heap-profile-summary.ts <file.heapprofile>...: what a process's heap holds, by module, from V8's
// sampling heap profile (`node --heap-prof`, e.g. `npm run -s measure:idle -- --runs 1 --node-arg=--heap-prof
// --node-arg=--heap-prof-interval=16384`). The profile holds the objects still alive when it was written, each sampled
// with the stack that allocated it. Two views: by the package or folder of the function that allocated (node_modules/
// <name>, src/<folder>, rest/), and by the innermost of our own files on that stack, the code that asked for it
// (a library's module body counts as the library's).
import { readFileSync } from 'node:fs';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

function groupOf(url: string): string | undefined {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /\/(src|rest|scripts|bench)\/(?:([^/]+)\/)?/.exec(url);
  if (own) return own[2] && !own[2].endsWith('.ts') && !own[2].endsWith('.js') ? `${own[1]}/${own[2]}` : own[1];
  return undefined;
}

/** Frames of node itself only: loading a module (its source and code), or node's own work. */
const internalGroup = (frames: HeapNode['callFrame'][]) =>
  frames.some((frame) => frame.url.startsWith('node:internal/modules') || frame.url.startsWith('node:internal/source_map'))
    ? 'loading ES modules (node)'
    : 'node internals';

const ownFile = (url: string) => /\/((?:src|rest)\/.+)$/.exec(url)?.[1];

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
  const byPackage = new Map<string, number>();
  const byOwnFile = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, stack: HeapNode['callFrame'][]) => {
    const frames = [...stack, node.callFrame];
    if (node.selfSize > 0) {
      total += node.selfSize;
      const allocating = frames.findLast((frame) => groupOf(frame.url));
      const allocator = allocating ? groupOf(allocating.url)! : internalGroup(frames);
      byPackage.set(allocator, (byPackage.get(allocator) ?? 0) + node.selfSize);
      const asker = frames.findLast((frame) => ownFile(frame.url));
      const key = asker ? ownFile(asker.url)! : allocator;
      byOwnFile.set(key, (byOwnFile.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, frames);
  };
  walk(profile.head, []);
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([key, size]) => `  ${(size / 1024 / 1024).toFixed(1).padStart(6)} MiB  ${((100 * size) / total).toFixed(1).padStart(5)}%  ${key}`,
      );
  console.log(
    `${file}: ${(total / 1024 / 1024).toFixed(1)} MiB sampled alive\n` +
      `by allocating package:\n${top(byPackage, 25).join('\n')}\n` +
      `by our file that asked:\n${top(byOwnFile, 25).join('\n')}\n`,
  );
}
