// Access by construction: a protected object type names its Resource (`access:` on the type), and every field whose
// type is that object, a list of it, or a union holding it answers only the objects the viewer may see (the policy's
// `view`), whatever its parent: a nullable field answers null, a list leaves the object out, and a required field
// answers "not found" (404 in REST). Fields below a protected object may rely on it: whoever reads them could see it.
//
// Lists still filter in SQL, so that their counts and pages are right; this check is what keeps an object from
// leaking through a field someone forgot, or a path nobody thought of (a site's site spaces reaching a restricted
// space). It costs nothing where the list engine or authorize() already computed the level (annotations), and one
// batch per field otherwise. Every object it lets through is remembered, so that its children judge it for free.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type PothosOutputFieldType, type SchemaTypes } from '@pothos/core';
import { type GraphQLAbstractType, type GraphQLResolveInfo, getNamedType, isAbstractType } from 'graphql';
import { type Guard, type Resource, remember, visible } from './authorize.js';
import type { Context } from './context.js';
import { notFound } from './errors.js';

/** The protected object types by name, with their resource: what the schema-walking test reads too. */
export const protectedTypes = new Map<string, Guard<object>>();

type Shape = { kind: 'single' | 'list'; nullable: boolean };

function shapeOf<Types extends SchemaTypes>(type: PothosOutputFieldType<Types>): Shape {
  return { kind: type.kind === 'List' ? 'list' : 'single', nullable: type.nullable };
}

/** The resource an object answered for a field is judged by: its type's, or its concrete type's for a union. */
async function resourceOf(value: object, ctx: Context, info: GraphQLResolveInfo): Promise<Guard<object> | undefined> {
  const named = getNamedType(info.returnType);
  if (!isAbstractType(named)) return protectedTypes.get(named.name);
  const concrete = await (named as GraphQLAbstractType).resolveType?.(value, ctx, info, named);
  return typeof concrete === 'string' ? protectedTypes.get(concrete) : undefined;
}

/** Whether the viewer may see an object; remembered when they may. */
async function admits(value: unknown, ctx: Context, info: GraphQLResolveInfo): Promise<boolean> {
  if (value === null || typeof value !== 'object' || value instanceof Error) return true;
  const resource = await resourceOf(value, ctx, info);
  if (!resource) return true;
  const level = await resource.level.of(ctx, value);
  if (!visible(resource, level, resource.ownerOf?.(value) === ctx.viewer.userId)) return false;
  if (typeof (value as { id?: unknown }).id === 'string') remember(ctx, resource as Resource<object>, value);
  return true;
}

async function guard(value: unknown, shape: Shape, ctx: Context, info: GraphQLResolveInfo): Promise<unknown> {
  if (value === null || value === undefined) return value;
  if (shape.kind === 'list') {
    const items = [...(value as Iterable<unknown>)];
    const admitted = await Promise.all(items.map((item) => admits(item, ctx, info)));
    return items.filter((_item, i) => admitted[i]);
  }
  if (await admits(value, ctx, info)) return value;
  if (shape.nullable) return null;
  const resource = await resourceOf(value as object, ctx, info);
  throw notFound(resource?.kind ?? 'Object');
}

export class AccessPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onTypeConfig(typeConfig: Parameters<BasePlugin<Types>['onTypeConfig']>[0]) {
    if (typeConfig.kind === 'Object') {
      const resource = (typeConfig.pothosOptions as { access?: Guard<object> }).access;
      if (resource) protectedTypes.set(typeConfig.name, resource);
    }
    return typeConfig;
  }

  /** Whether a field's type is, or may be (a union), a protected object. */
  private returnsProtected(fieldConfig: PothosOutputFieldConfig<Types>): boolean {
    const type = fieldConfig.type.kind === 'List' ? fieldConfig.type.type : fieldConfig.type;
    if (type.kind !== 'Object' && type.kind !== 'Union' && type.kind !== 'Interface') return false;
    const config = this.buildCache.getTypeConfig(type.ref);
    const members = config.kind === 'Union' ? config.types.map((member) => this.buildCache.getTypeConfig(member)) : [config];
    return members.some((member) => (member.pothosOptions as { access?: unknown }).access !== undefined);
  }

  override wrapResolve(
    resolver: Parameters<BasePlugin<Types>['wrapResolve']>[0],
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): Parameters<BasePlugin<Types>['wrapResolve']>[0] {
    if (!this.returnsProtected(fieldConfig)) return resolver;
    const shape = shapeOf(fieldConfig.type);
    return async (parent, args, ctx, info) => guard(await resolver(parent, args, ctx, info), shape, ctx as Context, info);
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      access: AccessPlugin<Types>;
    }
    export interface ObjectTypeOptions<Types extends SchemaTypes = SchemaTypes, Shape = unknown> {
      /** The resource that decides who may see objects of this type, wherever a field returns them. */
      access?: Guard<Shape & object>;
    }
  }
}

SchemaBuilder.registerPlugin('access', AccessPlugin);
export default 'access' as const;
