// List types: the GraphQL shape of the REST list envelope, `{items, next: {page}, count}`.
import type { ObjectRef } from '@pothos/core';
import { builder } from './builder.js';
import { PageInfoRef } from './enums.js';
import type { ListPage } from './pagination.js';

export function listOf<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>) {
  return builder.objectRef<ListPage<T>>(`${name}List`).implement({
    fields: (t) => ({
      items: t.field({ type: [item], resolve: (list) => list.items }),
      next: t.field({ type: PageInfoRef, nullable: true, resolve: (list) => list.next ?? null }),
      count: t.exposeInt('count', { description: 'Total number of items in the list, across all pages.' }),
    }),
  });
}

/** Arguments every list takes. */
export const listArgs = builder.args((t) => ({
  page: t.string({ required: false, description: 'Page token from `next.page` of the previous page.' }),
  limit: t.int({ required: false, description: 'Items per page, 1 to 1000 (default 50).' }),
}));
