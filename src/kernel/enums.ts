// Enumerations shared by several domains.
import { builder, restEnum } from './builder.js';

const roles = { admin: 'admin', create: 'create', review: 'review', edit: 'edit', comment: 'comment', read: 'read' } as const;

export const MemberRoleEnum = restEnum('MemberRole', roles, 'Role of a member in an organization; null is a guest.');

export const ContentLevelEnum = restEnum(
  'ContentLevel',
  { inherit: 'inherit', ...roles },
  'Default level of a collection or space: a role, inherit (from the parent), or null (no default access).',
);

export const PageInfoRef = builder.objectRef<{ page: string }>('NextPage').implement({
  description: 'Where the next page of a list starts.',
  fields: (t) => ({ page: t.exposeString('page', { description: 'Pass as the `page` argument to get the next page.' }) }),
});
