// Validation of response bodies against GitBook's published OpenAPI specs (the @gitbook/api packages installed side by
// side as gitbook-api-0202, -0181, -0167, -0143, -0130, -0091) and against the service's own document, and the matching
// official client.
//
// Each spec document is added once to an Ajv (JSON Schema 2020-12) instance under its own $id; a validator for one
// operation/status is a `{ $ref: '<id>#/<pointer to the response schema>' }`, compiled lazily and cached.
//
// Quirks handled here:
// - Response objects are often `{ description, $ref: '#/components/responses/NotFoundError' }`. Ajv resolves a JSON
//   pointer only through plain objects, so the response-level $ref is followed here and the pointer aims at the
//   component's own schema.
// - 0.130 and 0.91 are OpenAPI 3.0.3: `nullable: true` is not JSON Schema. It is rewritten to 2020-12 form (null added
//   to `type` and to `enum`; `{ $ref, nullable }` becomes `anyOf: [{ $ref }, { type: 'null' }]`), and, as OpenAPI 3.0
//   says, keywords next to a `$ref` are dropped. 3.1 documents (0.167+) are used as published.
// - Formats that ajv-formats does not know (`emoji`, `icon`, ...) are registered as always valid.
// - `discriminator` and `example` are ignored (strict: false), so a `oneOf` is decided by its branches alone.
import { AssertionError } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import ajvFormatsModule from 'ajv-formats';
import { GitBookAPI as GitBookAPI0091 } from 'gitbook-api-0091';
import { GitBookAPI as GitBookAPI0130 } from 'gitbook-api-0130';
import { GitBookAPI as GitBookAPI0143 } from 'gitbook-api-0143';
import { GitBookAPI as GitBookAPI0167 } from 'gitbook-api-0167';
import { GitBookAPI as GitBookAPI0181 } from 'gitbook-api-0181';
import { GitBookAPI as GitBookAPI0202 } from 'gitbook-api-0202';
import type { Api as Api0091 } from '../../node_modules/gitbook-api-0091/dist/client.js';
import type { Api as Api0130 } from '../../node_modules/gitbook-api-0130/dist/client.js';
import type { Api as Api0143 } from '../../node_modules/gitbook-api-0143/dist/client.js';
import type { Api as Api0167 } from '../../node_modules/gitbook-api-0167/dist/client.js';
import type { Api as Api0181 } from '../../node_modules/gitbook-api-0181/dist/client.js';
// The packages' index.d.ts re-export './client' without an extension, which NodeNext cannot resolve inside an ESM
// package, so GitBookAPI loses its inherited API groups (`orgs`, `spaces`, ...). client.d.ts is self-contained: take the
// `Api` class (and, for callers, the model types) from it by path. Type-only imports: nothing is loaded at run time.
import type { Api as Api0202 } from '../../node_modules/gitbook-api-0202/dist/client.js';
import { compileRoutes } from '../../rest/compile.js';
import { openApiDocument } from '../../rest/openapi.js';
import { restModules, schema } from '../../src/schema.js';

export type SpecVersion = '0202' | '0181' | '0167' | '0143' | '0130' | '0091';
export const specVersions: readonly SpecVersion[] = ['0202', '0181', '0167', '0143', '0130', '0091'];
/** A GitBook spec, or `ours`: the document this service serves at /openapi.json (rest/openapi.ts). */
export type DocumentName = SpecVersion | 'ours';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface OpenAPIDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, JsonObject> } & JsonObject>>;
  components?: JsonObject;
}

const require = createRequire(import.meta.url);

// ajv-formats is CommonJS (`module.exports = plugin`, plus `exports.default = plugin`). Under NodeNext the default
// import is typed as the module object, while at run time it is the plugin itself; accept both shapes.
const addFormats: FormatsPlugin =
  typeof ajvFormatsModule === 'function'
    ? (ajvFormatsModule as unknown as FormatsPlugin)
    : (ajvFormatsModule as unknown as { default: FormatsPlugin }).default;

interface LoadedSpec {
  id: string;
  doc: OpenAPIDocument;
  ajv: Ajv2020;
}

const specs = new Map<DocumentName, LoadedSpec>();
const validators = new Map<string, ValidateFunction | null>();

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rewrites OpenAPI 3.0 schema dialect (nullable, $ref siblings) into JSON Schema 2020-12, in place. */
function upgradeOpenAPI30(node: Json): void {
  if (Array.isArray(node)) {
    for (const item of node) upgradeOpenAPI30(item);
    return;
  }
  if (!isObject(node)) return;
  for (const value of Object.values(node)) upgradeOpenAPI30(value);

  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const nullable = node.nullable === true;
    for (const key of Object.keys(node)) delete node[key];
    if (nullable) node.anyOf = [{ $ref: ref }, { type: 'null' }];
    else node.$ref = ref;
    return;
  }
  if (!('nullable' in node)) return;
  const nullable = node.nullable === true;
  delete node.nullable;
  if (!nullable) return;
  if (typeof node.type === 'string') node.type = [node.type, 'null'];
  else if (Array.isArray(node.type) && !node.type.includes('null')) node.type.push('null');
  else if (node.type === undefined) {
    // No type: the alternatives live in allOf/oneOf/anyOf; wrap the whole schema.
    const inner: JsonObject = { ...node };
    for (const key of Object.keys(node)) delete node[key];
    node.anyOf = [inner, { type: 'null' }];
    return;
  }
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
}

function collectFormats(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) collectFormats(item, into);
  else if (isObject(node)) {
    if (typeof node.format === 'string') into.add(node.format);
    for (const value of Object.values(node)) collectFormats(value, into);
  }
  return into;
}

/** The service's own document, as GET /openapi.json serves it. */
export const ourDocument = () => openApiDocument(compileRoutes(schema, restModules), { title: 'test', version: '0' });

function loadSpec(version: DocumentName): LoadedSpec {
  const cached = specs.get(version);
  if (cached) return cached;
  const doc = (
    version === 'ours' ? ourDocument() : JSON.parse(readFileSync(require.resolve(`gitbook-api-${version}/spec/openapi.json`), 'utf8'))
  ) as OpenAPIDocument;
  if (doc.openapi.startsWith('3.0')) upgradeOpenAPI30(doc as unknown as Json);

  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const format of collectFormats(doc, new Set())) {
    if (!ajv.formats[format]) ajv.addFormat(format, true);
  }
  const id = `https://gitbook-api.test/${version}/openapi.json`;
  ajv.addSchema(doc as unknown as JsonObject, id);
  const loaded = { id, doc, ajv };
  specs.set(version, loaded);
  return loaded;
}

function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Reads a local `#/a/b` reference in the document. */
function resolveLocalRef(doc: OpenAPIDocument, ref: string): { value: unknown; pointer: string[] } {
  if (!ref.startsWith('#/')) throw new Error(`Unsupported non-local $ref ${ref}`);
  const pointer = ref
    .slice(2)
    .split('/')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  let value: unknown = doc;
  for (const segment of pointer) value = isObject(value) ? value[segment] : undefined;
  return { value, pointer };
}

function normaliseArgs(method: string, path: string): { method: string; path: string } {
  return { method: method.toLowerCase(), path: path.replace(/^\/v1(?=\/|$)/, '') || '/' };
}

type Located =
  | { kind: 'missing'; reason: string }
  | { kind: 'no-body'; statusKey: string }
  | { kind: 'schema'; statusKey: string; pointer: string[] };

/** Finds the response for a status: exact code, then `4XX`-style range, then `default`; follows response $refs. */
function locate(version: DocumentName, rawMethod: string, rawPath: string, status: number): Located {
  const { doc } = loadSpec(version);
  const { method, path } = normaliseArgs(rawMethod, rawPath);
  const pathItem = doc.paths[path];
  if (!pathItem) return { kind: 'missing', reason: `no path ${path} in spec ${version}` };
  const operation = pathItem[method];
  if (!operation) return { kind: 'missing', reason: `no ${method.toUpperCase()} ${path} in spec ${version}` };
  const responses = operation.responses ?? {};
  const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in responses);
  if (!statusKey) {
    return {
      kind: 'missing',
      reason: `${method.toUpperCase()} ${path} (spec ${version}) declares no response ${status} (declared: ${Object.keys(responses).join(', ')})`,
    };
  }
  let response: unknown = responses[statusKey];
  let pointer = ['paths', path, method, 'responses', statusKey];
  for (let hops = 0; isObject(response) && typeof response.$ref === 'string'; hops++) {
    if (hops > 10) throw new Error(`Response $ref loop at ${pointer.join('/')}`);
    ({ value: response, pointer } = resolveLocalRef(doc, response.$ref));
  }
  const content = isObject(response) ? response.content : undefined;
  if (!isObject(content)) return { kind: 'no-body', statusKey };
  const mediaType = Object.keys(content).find((type) => /^application\/json\b/.test(type));
  if (!mediaType || !isObject(content[mediaType]) || !('schema' in (content[mediaType] as JsonObject))) {
    return {
      kind: 'missing',
      reason: `${method.toUpperCase()} ${path} ${statusKey} (spec ${version}) has no application/json schema (content: ${Object.keys(content).join(', ')})`,
    };
  }
  return { kind: 'schema', statusKey, pointer: [...pointer, 'content', mediaType, 'schema'] };
}

function validatorFor(version: DocumentName, pointer: string[]): ValidateFunction {
  const { id, ajv } = loadSpec(version);
  // JSON-pointer escape each segment, then percent-encode what a URI fragment may not hold (`{`, `}`, ...).
  const fragment = pointer.map((s) => encodeURIComponent(escapePointerSegment(s))).join('/');
  const key = `${version}#/${fragment}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${id}#/${fragment}` });
    validators.set(key, validate);
  }
  return validate;
}

/** True when the spec declares a JSON response schema for this operation and status (exact, range, or `default`). */
export function responseSchemaExists(version: SpecVersion, method: string, path: string, status: number): boolean {
  return locate(version, method, path, status).kind === 'schema';
}

/** True when the spec has this operation at all. */
export function operationExists(version: SpecVersion, method: string, path: string): boolean {
  const { doc } = loadSpec(version);
  const n = normaliseArgs(method, path);
  return Boolean(doc.paths[n.path]?.[n.method]);
}

/** GitBook's operationId of this operation in the spec; undefined when the spec has no such operation or leaves it unnamed. */
export function operationIdOf(version: SpecVersion, method: string, path: string): string | undefined {
  const { doc } = loadSpec(version);
  const n = normaliseArgs(method, path);
  const operationId = doc.paths[n.path]?.[n.method]?.operationId;
  return typeof operationId === 'string' ? operationId : undefined;
}

/** True when some operation of the spec has this operationId. */
export function operationIdExists(version: SpecVersion, operationId: string): boolean {
  const { doc } = loadSpec(version);
  return Object.values(doc.paths).some((operations) =>
    Object.values(operations as Record<string, { operationId?: unknown }>).some((operation) => operation?.operationId === operationId),
  );
}

function truncate(value: unknown, max = 200): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function valueAt(body: unknown, instancePath: string): unknown {
  if (!instancePath) return body;
  let value: unknown = body;
  for (const raw of instancePath.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function describeError(error: ErrorObject, body: unknown): string {
  const where = error.instancePath || '(root)';
  let detail = error.message ?? error.keyword;
  if (error.keyword === 'enum') detail += ` ${truncate((error.params as { allowedValues: unknown }).allowedValues, 120)}`;
  if (error.keyword === 'additionalProperties') detail += ` '${(error.params as { additionalProperty: string }).additionalProperty}'`;
  if (error.keyword === 'const') detail += ` ${truncate((error.params as { allowedValue: unknown }).allowedValue, 120)}`;
  return `  ${where}: ${detail} (value: ${truncate(valueAt(body, error.instancePath))}) [${error.schemaPath}]`;
}

/**
 * Asserts that `body` matches the application/json response schema of `method path` for `status` in GitBook's spec
 * `version`, and in the service's own document. `path` is the spec's templated path without `/v1`
 * (`/spaces/{spaceId}`); a leading `/v1` is tolerated. A declared response without content (204/205) expects no body
 * (undefined, null or '').
 */
export function expectMatchesSpec(version: SpecVersion, method: string, path: string, status: number, body: unknown): void {
  expectMatchesDocument(version, method, path, status, body);
  expectMatchesDocument('ours', method, path, status, body);
}

/** Asserts that `body` matches one document only (GitBook's spec `version`, or `ours`). */
export function expectMatchesDocument(version: DocumentName, method: string, path: string, status: number, body: unknown): void {
  const located = locate(version, method, path, status);
  const label = `${method.toUpperCase()} ${path} ${status} (${version === 'ours' ? 'our /openapi.json' : `GitBook spec ${version}`})`;
  if (located.kind === 'missing') throw new AssertionError({ message: `Cannot validate ${label}: ${located.reason}` });
  if (located.kind === 'no-body') {
    if (body === undefined || body === null || body === '') return;
    throw new AssertionError({ message: `${label}: the spec declares no body for ${located.statusKey}, got ${truncate(body)}` });
  }
  const validate = validatorFor(version, located.pointer);
  if (validate(body)) return;
  const errors = validate.errors ?? [];
  const shown = errors.slice(0, 25).map((e) => describeError(e, body));
  if (errors.length > shown.length) shown.push(`  … and ${errors.length - shown.length} more`);
  throw new AssertionError({
    message: `Response body does not match ${label}${located.statusKey === String(status) ? '' : ` [schema of '${located.statusKey}']`}:\n${shown.join('\n')}\nbody: ${truncate(body, 1000)}`,
  });
}

const clients = {
  '0202': GitBookAPI0202,
  '0181': GitBookAPI0181,
  '0167': GitBookAPI0167,
  '0143': GitBookAPI0143,
  '0130': GitBookAPI0130,
  '0091': GitBookAPI0091,
} as const;

type Security = { authToken?: string };
interface ApiGroups {
  '0202': Api0202<Security>;
  '0181': Api0181<Security>;
  '0167': Api0167<Security>;
  '0143': Api0143<Security>;
  '0130': Api0130<Security>;
  '0091': Api0091<Security>;
}

/** The client of a version, with its API groups typed (`client.orgs.getOrganizationById`, ...). */
export type GitBookClient<V extends SpecVersion> = InstanceType<(typeof clients)[V]> & ApiGroups[V];

/** GitBook's official client of that version, aimed at `baseUrl` (it appends `/v1/...` itself). */
export function gitbookClient<V extends SpecVersion>(version: V, baseUrl: string, token: string): GitBookClient<V> {
  const Client = clients[version];
  return new Client({ endpoint: baseUrl, authToken: token }) as unknown as GitBookClient<V>;
}
