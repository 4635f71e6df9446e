// The personas the endpoint tests share: one of each role in one organization, plus people and organizations outside.
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import type { MemberRole } from '../../src/generated/prisma/enums.js';
import type { Person } from './app.js';
import { buildMember, buildOrganization, buildUser } from './factories.js';

export interface World {
  /** "Acme": every persona but the outsider is a member. */
  organizationId: string;
  /** "Second": the admin is its admin too; nobody else is a member. */
  secondOrganizationId: string;
  /** "Other": the outsider's organization; nobody else is a member. */
  outsiderOrganizationId: string;
  admin: Person;
  creator: Person;
  reviewer: Person;
  editor: Person;
  commenter: Person;
  reader: Person;
  /** A member without role. */
  guest: Person;
  /** Admin of the outsider's organization only. */
  outsider: Person;
}

export async function buildWorld(prisma: PrismaClient): Promise<World> {
  const [admin, outsider] = await Promise.all([
    buildUser(prisma, { displayName: 'Admin' }),
    buildUser(prisma, { displayName: 'Outsider' }),
  ]);
  const [acme, second, other] = await Promise.all([
    buildOrganization(prisma, { title: 'Acme', owner: admin }),
    buildOrganization(prisma, { title: 'Second', owner: admin }),
    buildOrganization(prisma, { title: 'Other', owner: outsider }),
  ]);
  const organizationId = acme.organization.id;
  const member = async (displayName: string, role: MemberRole | null) =>
    buildMember(prisma, { organizationId, role, user: await buildUser(prisma, { displayName }) });
  const [creator, reviewer, editor, commenter, reader, guest] = await Promise.all([
    member('Creator', 'create'),
    member('Reviewer', 'review'),
    member('Editor', 'edit'),
    member('Commenter', 'comment'),
    member('Reader', 'read'),
    member('Guest', null),
  ]);
  return {
    organizationId,
    secondOrganizationId: second.organization.id,
    outsiderOrganizationId: other.organization.id,
    admin,
    creator,
    reviewer,
    editor,
    commenter,
    reader,
    guest,
    outsider,
  };
}
