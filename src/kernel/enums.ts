// Enumerations shared by several domains, spelled once: from the Prisma enums generated from prisma/schema.prisma.
import { ContentLevel, MemberRole } from '../generated/prisma/enums.js';
import { prismaEnum } from './builder.js';

export const MemberRoleEnum = prismaEnum('MemberRole', MemberRole, 'Role of a member in an organization; null is a guest.');

export const ContentLevelEnum = prismaEnum(
  'ContentLevel',
  ContentLevel,
  'Default level of a collection or space: a role, inherit (from the parent), or null (no default access).',
);
