// npm run bench:profile -- <file.cpuprofile>...: where a server's CPU time went, from a V8 CPU profile written by
// `BENCH_CPU_PROF=1 npm run bench`. Self time is grouped by package (node_modules/<name>, our own folders, node
// internals, GC) and the heaviest functions are listed, as shares of the non-idle samples.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

function groupOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)') return 'V8 (program)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:') || (!url && name)) return 'node internals';
  const own = /\/(src|rest|bench)\/([^/]+)/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url || '(native)';
}

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map<number, number>();
  for (const sample of profile.samples) hits.set(sample, (hits.get(sample) ?? 0) + 1);
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, count] of hits) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    total += count;
    const group = groupOf(url, functionName);
    groups.set(group, (groups.get(group) ?? 0) + count);
    const file = url.split('/').pop()?.split('?')[0] || group;
    const key = `${functionName || '(anonymous)'} ${group === file ? group : `${group} ${file}`}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + count);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, count]) => `  ${((100 * count) / total).toFixed(1).padStart(5)}%  ${key}`);
  console.log(
    `${file}: ${total} non-idle samples\nby package:\n${top(groups, 15).join('\n')}\nby function:\n${top(functions, 25).join('\n')}\n`,
  );
}
