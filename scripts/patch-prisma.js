// `npm install`'s first step (package.json's postinstall): makes Prisma's client (7.10.0, pinned) keep its
// parameterization graph in Maps instead of objects keyed by numbers, which saves the service about 19 MiB of heap
// and 12 MiB of RSS (README, "Memory at start-up").
//
// The client decodes the graph, from a base64 string in the generated code, when it is constructed. Each of its
// ~3,500 nodes keeps its edges in an object keyed by indices into a table of thousands of strings; V8 stores such an
// object's integer keys as an array as long as the largest key, so 1 to 17 edges cost up to 13 KB (20 MiB in all,
// measured with a heap snapshot). A Map holds the same edges in their own size. Only the decoder and the two reads of
// an edge change; what they answer is the same.
//
// Each replacement must match exactly once in the installed file, or already be applied (a second install): when
// Prisma changes, the install fails here, saying so, instead of running an unknown mix.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CLIENT = path.resolve(import.meta.dirname, '../node_modules/@prisma/client/runtime/client.js');

/** [what Prisma 7.10.0 has, what it becomes] */
const REPLACEMENTS = [
  // The decoder of input nodes: edges into a Map.
  ['#u(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o={};', '#u(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o=new Map;'],
  ['S.enumNameIndex=P),o[a]=S}r.push({edges:o})}return r}', 'S.enumNameIndex=P),o.set(a,S)}r.push({edges:o})}return r}'],
  // The decoder of output nodes.
  ['#l(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o={};', '#l(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o=new Map;'],
  ['P.outputNodeId=m),o[a]=P}r.push({edges:o})}return r}', 'P.outputNodeId=m),o.set(a,P)}r.push({edges:o})}return r}'],
  // The two reads of an edge (inputEdge, outputEdge).
  [
    'if(i===void 0)return;let o=n.edges[i];if(o)return{flags:o.flags',
    'if(i===void 0)return;let o=n.edges.get(i);if(o)return{flags:o.flags',
  ],
  ['if(i===void 0)return;let o=n.edges[i];if(o)return{argsNodeId', 'if(i===void 0)return;let o=n.edges.get(i);if(o)return{argsNodeId'],
];

/**
 * @param {string} text
 * @param {string} part
 */
const occurrences = (text, part) => text.split(part).length - 1;

let source = readFileSync(CLIENT, 'utf8');
let applied = 0;
for (const [original, patched] of REPLACEMENTS) {
  if (occurrences(source, patched) === 1) continue;
  if (occurrences(source, original) === 1) {
    source = source.replace(original, patched);
    applied++;
  } else {
    process.stderr.write(
      `scripts/patch-prisma.js: ${CLIENT} is not the one this patch was written for (Prisma 7.10.0): ` +
        `"${original}" is not in it once. Check the patch against the installed Prisma, or remove it.\n`,
    );
    process.exit(1);
  }
}
if (applied) writeFileSync(CLIENT, source);
