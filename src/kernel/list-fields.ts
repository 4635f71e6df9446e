// The GraphQL side of the list engine (lists.ts): a list field's resolver (`listPage`, one loader per field of the
// query, so that every parent resolving it in a request shares one statement), the REST list envelope as a GraphQL
// type, the arguments every list takes, and the field option of lists that read only their parent's key.
import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { type FieldNode, type GraphQLObjectType, type GraphQLResolveInfo, getNamedType } from 'graphql';
import { builder } from './builder.js';
import { type Context, loaderFor } from './context.js';
import { type ListPage, type ListSource, loadPages, type PageArgs } from './lists.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MIN_LIMIT } from './pagination.js';
import { integerRange } from './validation.js';

/** A loader key per field of a document, so that the same field under every parent shares one loader. */
const fieldIds = new WeakMap<FieldNode, symbol>();

function loaderKey(info: GraphQLResolveInfo): symbol {
  const node = info.fieldNodes[0];
  const known = fieldIds.get(node);
  if (known) return known;
  const key = Symbol(`list ${node.name.value}`);
  fieldIds.set(node, key);
  return key;
}

/** One parent's page of the list; batched with every other parent of the same field in this request. */
export function listPage<Row extends object, Args>(
  source: ListSource<Row, Args>,
  ctx: Context,
  info: GraphQLResolveInfo,
  parentKey: string,
  args: Args & PageArgs,
): Promise<ListPage<Row>> {
  // One loader per field of the query: every parent that resolves it in this request passes the same arguments.
  return loaderFor<string, ListPage<Row>>(ctx, loaderKey(info), (parentKeys) =>
    loadPages(source, ctx, [...parentKeys], args, source.fetch ? queryFromInfo({ context: ctx, info, path: ['items'] }) : {}),
  ).load(parentKey);
}

export const NextPage = builder.objectRef<{ page: string }>('NextPage').implement({
  description: 'Where the next page of a list starts.',
  fields: (t) => ({ page: t.exposeString('page', { description: 'Pass as the `page` argument to get the next page.' }) }),
});

/** The GraphQL shape of the REST list envelope, `{items, next: {page}, count}`. */
export function listOf<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>) {
  return builder.objectRef<ListPage<T>>(`${name}List`).implement({
    fields: (t) => ({
      items: t.field({ type: [item], resolve: (list) => list.items }),
      next: t.expose('next', { type: NextPage, nullable: true }),
      count: t.exposeInt('count', { description: 'Total number of items in the list, across all pages.' }),
    }),
  });
}

/** Arguments every list takes. */
export const listArgs = builder.args((t) => ({
  page: t.string({ required: false, description: 'Page token from `next.page` of the previous page.' }),
  limit: t.int({
    required: false,
    description: `Items per page, ${MIN_LIMIT} to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); ${MIN_LIMIT} answers the count alone.`,
    ...integerRange(MIN_LIMIT, MAX_LIMIT),
  }),
}));

/**
 * Field option of a list hanging off a parent: the field reads nothing of its parent but the key, so a resolver that
 * returns the parent may skip loading its row when nothing else is selected (see selectsOnlyListFields).
 */
export const readsParentKeyOnly = { extensions: { readsParentKeyOnly: true } } as const;

const keyOnlyFields = new WeakMap<GraphQLObjectType, Set<string>>();

/** True when the query selects nothing of the returned object but its id and its lists (fragments included). */
export function selectsOnlyListFields(info: GraphQLResolveInfo): boolean {
  const type = getNamedType(info.returnType) as GraphQLObjectType;
  let allowed = keyOnlyFields.get(type);
  if (!allowed) {
    const lists = Object.values(type.getFields()).filter((field) => field.extensions?.readsParentKeyOnly);
    allowed = new Set(['__typename', 'id', ...lists.map((field) => field.name)]);
    keyOnlyFields.set(type, allowed);
  }
  const only = (set: FieldNode['selectionSet']): boolean =>
    !set ||
    set.selections.every((selection) => {
      if (selection.kind === 'Field') return allowed.has(selection.name.value);
      if (selection.kind === 'InlineFragment') return only(selection.selectionSet);
      return only(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.every((node) => only(node.selectionSet));
}
