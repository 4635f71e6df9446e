// A Pothos plugin that refuses every mutation to a read-only token (its scope `access: "read"`), before its arguments
// are checked or anything runs. Declared once here, it covers every mutation of every domain, REST and GraphQL alike;
// test/tokens/read-only.test.ts walks them all.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { Context } from './context.js';
import { ApiError } from './errors.js';

export const readOnlyRefusal = (field: string) =>
  new ApiError(403, `This token's scope is read-only (access: "read"): it may not run ${field}.`);

export class ReadOnlyPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (fieldConfig.parentType !== 'Mutation') return fieldConfig;
    const refuse = (args: Record<string, unknown>, ctx: Types['Context']) => {
      if ((ctx as Context).viewer.readOnly) throw readOnlyRefusal(fieldConfig.name);
      return args;
    };
    return { ...fieldConfig, argMappers: [refuse, ...fieldConfig.argMappers] };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      readOnly: ReadOnlyPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('readOnly', ReadOnlyPlugin);
export default 'readOnly' as const;
