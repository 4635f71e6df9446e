// The GraphQL side of the list engine (lists.ts): a list field's resolver (`listPage`, one loader per field of the
// query, so that every parent resolving it in a request shares one statement), the REST list envelope as a GraphQL
// type, and the arguments every list takes.
import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
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
    ...integerRange(
      MIN_LIMIT,
      MAX_LIMIT,
      (range) => `Items per page, ${range} (default ${DEFAULT_LIMIT}); ${MIN_LIMIT} answers the count alone.`,
    ),
  }),
}));
