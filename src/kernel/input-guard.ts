// A Pothos plugin that checks every argument of every field before validation and resolvers see it: no string (or
// object key) with a NUL character, which PostgreSQL cannot store, and no value nested deeper than MAX_DEPTH, which
// recursive validators cannot walk. Declared once here, it covers every input of every domain, REST and GraphQL alike.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { invalidInput } from './validation.js';

export const MAX_DEPTH = 32;

/** Throws a 400 naming the path of the first NUL character or over-deep value found. */
export function guardInput(value: unknown, path: (string | number)[], depth = 0): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw invalidInput(path, 'must not contain NUL characters');
    return;
  }
  if (value === null || typeof value !== 'object' || value instanceof Date) return;
  if (depth >= MAX_DEPTH) throw invalidInput(path, `must not be nested more than ${MAX_DEPTH} levels deep`);
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) throw invalidInput(path, 'must not contain NUL characters in keys');
    guardInput(item, [...path, Array.isArray(value) ? Number(key) : key], depth + 1);
  }
}

export class InputGuardPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (Object.keys(fieldConfig.args).length === 0) return fieldConfig;
    const guard = (args: Record<string, unknown>) => {
      guardInput(args, []);
      return args;
    };
    return { ...fieldConfig, argMappers: [guard, ...fieldConfig.argMappers] };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      inputGuard: InputGuardPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('inputGuard', InputGuardPlugin);
export default 'inputGuard' as const;
