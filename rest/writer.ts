// The REST body of a GraphQL result, written in one pass by a function generated per route from its output plan:
// REST enum spellings, absent optional fields omitted rather than null, keys in selection order, and each field's
// write inlined for its type (the generic walk of a result, and a closure call per field, were the largest share of a
// list request's CPU once the data was read). Generated once at start-up.
export type Writer = (value: unknown) => string;

/** How to turn one GraphQL result value into its REST form. */
export type OutputPlan =
  | { kind: 'leaf'; scalar: string }
  | { kind: 'enum'; rest: ReadonlyMap<string, string> }
  | { kind: 'list'; of: OutputPlan }
  | ObjectPlan
  | { kind: 'abstract'; byType: ReadonlyMap<string, ObjectPlan> };

export interface ObjectPlan {
  kind: 'object';
  /** The GraphQL type, and each field's description and nullability: what the OpenAPI document says (openapi.ts). */
  typeName: string;
  fields: readonly { key: string; keepNull: boolean; nonNull: boolean; description?: string; plan: OutputPlan }[];
}

/** Response key under which abstract selections carry their concrete type, for the writer only (never written). */
export const TYPE_KEY = '__restType';

/** Characters a JSON string must escape, and surrogates (JSON.stringify escapes lone ones; it settles the rest). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON must escape.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The expression that writes the scalar held in variable `v`; most strings need no escaping, only quotes. */
function scalarExpression(scalar: string): string {
  switch (scalar) {
    case 'String':
    case 'ID':
    case 'DateTime':
      return `(escape.test(v) ? JSON.stringify(v) : '"' + v + '"')`;
    case 'Boolean':
      return `(v ? 'true' : 'false')`;
    case 'Int':
      return `('' + v)`;
    default:
      return 'JSON.stringify(v)';
  }
}

/** Compiles an output plan into its writer. */
export function jsonWriter(plan: OutputPlan): Writer {
  switch (plan.kind) {
    case 'leaf':
      return new Function('escape', `return (v) => ${scalarExpression(plan.scalar)};`)(NEEDS_ESCAPE) as Writer;
    case 'enum': {
      const spelled = new Map([...plan.rest].map(([name, rest]) => [name, JSON.stringify(rest)]));
      return (value) => spelled.get(value as string) ?? JSON.stringify(value);
    }
    case 'list': {
      const item = jsonWriter(plan.of);
      return (value) => {
        const items = value as unknown[];
        let out = '';
        for (let i = 0; i < items.length; i++) {
          const v = items[i];
          out += `${i ? ',' : ''}${v === null || v === undefined ? 'null' : item(v)}`;
        }
        return `[${out}]`;
      };
    }
    case 'abstract': {
      const writers = new Map([...plan.byType].map(([name, objectPlan]) => [name, jsonWriter(objectPlan)]));
      return (value) => writers.get((value as Record<string, string>)[TYPE_KEY])!(value);
    }
    case 'object':
      return objectWriter(plan);
  }
}

/** An object's writer as straight-line code: one statement per field, nested values through their own writers. */
function objectWriter(plan: ObjectPlan): Writer {
  const nested: Writer[] = [];
  const statements = plan.fields.map((field) => {
    const prefix = JSON.stringify(`,${JSON.stringify(field.key)}:`);
    const write = field.plan.kind === 'leaf' ? scalarExpression(field.plan.scalar) : `w${nested.push(jsonWriter(field.plan)) - 1}(v)`;
    const absent = field.keepNull ? `out += ${prefix} + 'null';` : '';
    return `v = o[${JSON.stringify(field.key)}];
      if (v === null || v === undefined) { ${absent} } else out += ${prefix} + ${write};`;
  });
  const names = nested.map((_, i) => `w${i}`);
  const body = `return (o) => { let out = ''; let v;
    ${statements.join('\n    ')}
    return '{' + out.slice(1) + '}'; };`;
  return new Function('escape', ...names, body)(NEEDS_ESCAPE, ...nested) as Writer;
}
