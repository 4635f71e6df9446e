// The layers of src/ and rest/ point one way (README, "Layers"), read from the imports themselves with TypeScript's
// parser: a wrong-way import fails here, naming the chain of imports that makes it. A type-only import
// (`import type`, or `import { type X }` with nothing else) leaves nothing at run time and is no edge; `import()` is a
// lazy edge, which loads nothing until it runs: the rules below about what a module loads follow static imports,
// the rules about what a layer knows follow both.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/** Directories scanned, relative to the project's root. src/generated is Prisma's output, the bottom of every layer. */
const SCANNED = ['src', 'rest'];
const GENERATED = 'src/generated/';

/**
 * The base layer: the kernel, the database, the job queue and the service's plumbing. It imports no domain, and
 * neither does the REST engine (rest/).
 */
const BASE = [
  'src/kernel/',
  'src/db/',
  'src/jobs/',
  'src/config.ts',
  'src/logger.ts',
  'src/mail.ts',
  'src/monitoring.ts',
  'src/rate-limits.ts',
  'src/query-cost.ts',
  'src/lifecycle.ts',
  'src/project-root.ts',
  'rest/',
];

/**
 * The composition roots, which may import anything and which nothing below imports: the app, the schema and its
 * route table, the task list, the hooks, the entry points, the admin command line.
 */
const COMPOSITION = [
  'src/app.ts',
  'src/schema.ts',
  'src/graphql.ts',
  'src/api-reference.ts',
  'src/tasks.ts',
  'src/composition.ts',
  'src/main.ts',
  'src/worker.ts',
  'src/admin/',
];

/** The GraphQL side of the kernel: the schema builder, its plugins, the shared enums and the list fields. */
const KERNEL_GRAPHQL = [
  'src/kernel/builder.ts',
  'src/kernel/access.ts',
  'src/kernel/input-guard.ts',
  'src/kernel/read-only.ts',
  'src/kernel/enums.ts',
  'src/kernel/list-fields.ts',
  'src/jobs/types.ts',
];

/** In each domain, the files that make its GraphQL and REST side. */
const DOMAIN_GRAPHQL_FILES = ['types.ts', 'mutations.ts', 'index.ts', 'routes.ts'];
/** Files of a domain that are GraphQL only, under another name. */
const DOMAIN_GRAPHQL_EXTRA = [
  'src/change-requests/changes.ts',
  'src/change-requests/content-reads.ts',
  'src/change-requests/content-update.ts',
  'src/integrations/installation-types.ts',
  'src/site-structure/published-types.ts',
  'src/sites/custom-hostnames.ts',
];

interface Imports {
  /** Modules of the project loaded with the importer (static imports and re-exports that leave a value). */
  static: string[];
  /** Modules of the project loaded on first use (`import()`). */
  lazy: string[];
  /** Modules of the project whose types alone the importer names (nothing of them is loaded). */
  types: string[];
  /** Packages loaded with the importer. */
  packages: string[];
  /** Packages loaded on first use. */
  lazyPackages: string[];
}

function sourceFiles(): string[] {
  return SCANNED.flatMap((directory) =>
    readdirSync(path.join(projectRoot, directory), { recursive: true, encoding: 'utf8' })
      .map((file) => `${directory}/${file.split(path.sep).join('/')}`)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith(GENERATED)),
  ).sort();
}

/** Whether an import or export declaration leaves a value behind at run time. */
function leavesValue(clause: ts.ImportClause | undefined, exported: ts.NamedExportBindings | undefined, typeOnly: boolean): boolean {
  if (typeOnly) return false;
  const named = clause ? (clause.name ? undefined : clause.namedBindings) : exported;
  // A side-effect import, a default or namespace import, `export *`: a value.
  if (!named || (!ts.isNamedImports(named) && !ts.isNamedExports(named))) return true;
  const elements = named.elements as ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>;
  return elements.length === 0 || elements.some((element) => !element.isTypeOnly);
}

/** The imports of `file` (its text given), resolved among `known` modules (paths from the project's root). */
function importsOf(file: string, text: string, known: Set<string>): Imports {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Imports = { static: [], lazy: [], types: [], packages: [], lazyPackages: [] };
  const add = (specifier: string, kind: 'static' | 'lazy' | 'types') => {
    if (!specifier.startsWith('.')) {
      if (kind !== 'types') found[kind === 'static' ? 'packages' : 'lazyPackages'].push(specifier);
      return;
    }
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
    if (known.has(target)) found[kind].push(target);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const value = leavesValue(node.importClause, undefined, node.importClause?.isTypeOnly ?? false);
      add(node.moduleSpecifier.text, value ? 'static' : 'types');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, leavesValue(undefined, node.exportClause, node.isTypeOnly) ? 'static' : 'types');
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, 'lazy');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The tasks a module defines: each `defineTask(` call, with the exported constant it initializes (null when it is
 * anything else, which the registry could not name).
 */
function taskDefinitionsOf(file: string, text: string): { file: string; name: string | null }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { file: string; name: string | null }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineTask') {
      const declaration = node.parent;
      const statement = declaration?.parent?.parent;
      const exported =
        ts.isVariableDeclaration(declaration) &&
        ts.isIdentifier(declaration.name) &&
        statement !== undefined &&
        ts.isVariableStatement(statement) &&
        statement.parent === source &&
        (statement.modifiers ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      found.push({ file, name: exported ? (declaration.name as ts.Identifier).text : null });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles();
const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(path.join(projectRoot, file), 'utf8'), new Set(files))]));

const under = (file: string, prefixes: readonly string[]) => prefixes.some((prefix) => file === prefix || file.startsWith(prefix));
const isBase = (file: string) => under(file, BASE);
const isComposition = (file: string) => under(file, COMPOSITION);
/** The domain a file belongs to (`spaces` for src/spaces/service.ts), or null for the base and composition layers. */
const domainOf = (file: string) => (isBase(file) || isComposition(file) ? null : (/^src\/([^/]+)\//.exec(file)?.[1] ?? null));
const isGraphQL = (file: string) =>
  under(file, KERNEL_GRAPHQL) ||
  DOMAIN_GRAPHQL_EXTRA.includes(file) ||
  (domainOf(file) !== null && DOMAIN_GRAPHQL_FILES.includes(path.posix.basename(file)));

/**
 * The shortest chain of imports from `start` to a module `target` accepts (both included, `start` too when the chain
 * comes back to it), following static imports (and lazy ones too when `lazy`); null when there is none.
 */
function chainTo(start: string, target: (file: string) => boolean, lazy = false): string[] | null {
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    const imports = graph.get(file)!;
    for (const next of lazy ? [...imports.static, ...imports.lazy] : imports.static) {
      if (target(next)) {
        const chain = [next];
        for (let at: string | null = file; at; at = cameFrom.get(at) ?? null) chain.unshift(at);
        return chain;
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return null;
}

const shown = (chain: string[]) => chain.join(' -> ');

describe('layers', () => {
  it('tells static, type-only and lazy imports apart', () => {
    const known = new Set(['src/a/service.ts', 'src/a/types.ts', 'src/a/inputs.ts', 'src/a/heavy.ts', 'src/b/tree.ts', 'src/b/rows.ts']);
    const imports = importsOf(
      'src/a/service.ts',
      `import type { A } from './types.js';
       import { type B } from './inputs.js';
       import { type C, d } from '../b/tree.js';
       import '../b/rows.js';
       export { e } from './types.js';
       import { z } from 'zod';
       const heavy = () => import('./heavy.js');
       const pdf = () => import('pdfkit');`,
      known,
    );
    expect(imports).toEqual({
      static: ['src/b/tree.ts', 'src/b/rows.ts', 'src/a/types.ts'],
      lazy: ['src/a/heavy.ts'],
      types: ['src/a/types.ts', 'src/a/inputs.ts'],
      packages: ['zod'],
      lazyPackages: ['pdfkit'],
    });
    expect(files.length).toBeGreaterThan(150);
    expect(graph.get('src/main.ts')!.static).toContain('src/app.ts');
  });

  it('the GraphQL side is where Pothos is: a module that loads @pothos/* is a listed GraphQL file', () => {
    const unlisted = files.filter(
      (file) => graph.get(file)!.packages.some((name) => name.startsWith('@pothos/')) && !isGraphQL(file) && !isComposition(file),
    );
    expect(unlisted).toEqual([]);
  });

  it("a domain's logic (services, access, inputs) loads no GraphQL: not the schema builder, not any GraphQL file", () => {
    const problems = files
      .filter((file) => domainOf(file) !== null && !isGraphQL(file))
      .flatMap((file) => {
        const chain = chainTo(file, isGraphQL);
        return chain ? [shown(chain)] : [];
      });
    expect(problems).toEqual([]);
  });

  it("a domain's logic does not even name a GraphQL type: its inputs and results are plain types of its own", () => {
    const problems = files
      .filter((file) => domainOf(file) !== null && !isGraphQL(file))
      .flatMap((file) =>
        graph
          .get(file)!
          .types.filter(isGraphQL)
          .map((target) => shown([file, target])),
      );
    expect(problems).toEqual([]);
  });

  it('the revision store knows nothing of search and links: they plug in through hooks (src/composition.ts)', () => {
    const problems = files
      .filter((file) => file.startsWith('src/revisions/'))
      .flatMap((file) => {
        const chain = chainTo(file, (target) => target.startsWith('src/search/') || target.startsWith('src/links/'), true);
        return chain ? [shown(chain)] : [];
      });
    expect(problems).toEqual([]);
  });

  it('the base layer (kernel, database, jobs, plumbing) and rest/ import no domain and no composition root', () => {
    const problems = files.filter(isBase).flatMap((file) => {
      const imports = graph.get(file)!;
      return [...imports.static, ...imports.lazy].filter((target) => !isBase(target)).map((target) => shown([file, target]));
    });
    expect(problems).toEqual([]);
  });

  it('every background task is listed in src/tasks.ts, and the worker and the scheduler run that list', async () => {
    const definitions = files.flatMap((file) => taskDefinitionsOf(file, readFileSync(path.join(projectRoot, file), 'utf8')));
    expect(definitions.length).toBeGreaterThan(5);
    const { tasks } = await import('../../src/tasks.js');
    const problems: string[] = [];
    for (const { file, name } of definitions) {
      if (!name) {
        problems.push(`${file}: a defineTask( that is not an exported constant of its module`);
        continue;
      }
      const module = (await import(path.join(projectRoot, file))) as Record<string, unknown>;
      if (!tasks.includes(module[name] as never)) problems.push(`${file}: ${name} is not in src/tasks.ts's tasks`);
    }
    expect(problems).toEqual([]);
    expect(tasks.length).toBe(definitions.length);
    for (const entry of ['src/main.ts', 'src/worker.ts']) expect(graph.get(entry)!.static).toContain('src/tasks.ts');
  });

  it('no domain imports a composition root', () => {
    const problems = files
      .filter((file) => domainOf(file) !== null)
      .flatMap((file) => {
        const imports = graph.get(file)!;
        return [...imports.static, ...imports.lazy].filter(isComposition).map((target) => shown([file, target]));
      });
    expect(problems).toEqual([]);
  });

  it('has no runtime import cycle', () => {
    const cycles = new Set<string>();
    for (const file of files) {
      const cycle = chainTo(file, (target) => target === file);
      if (!cycle) continue;
      // Told once, from its first module by name.
      const ring = cycle.slice(1);
      const first = ring.indexOf([...ring].sort()[0]);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      cycles.add(shown([...rotated, rotated[0]]));
    }
    expect([...cycles]).toEqual([]);
  });
});
