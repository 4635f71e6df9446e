// The list engine reads rows with plain SQL when the selection needs no relation (src/kernel/lists.ts): those rows
// must be exactly what Prisma returns for the same ids, value types included, or fields would resolve differently.
import { expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { useDatabase } from '../support/database.js';
import { buildCollection, buildOrganization, buildSpace } from '../support/factories.js';

// The engine is called directly: a database suffices, no service.
const db = useDatabase();

const plain = (table: string, id: string) => db.sql(Prisma.sql`SELECT * FROM ${Prisma.raw(`"${table}"`)} WHERE id = ${id}`);

it('reads the same Organization, Collection and Space rows as Prisma, enums, JSON, arrays and dates included', async () => {
  const { organization } = await buildOrganization(db.prisma, {
    emailDomains: ['example.com'],
    defaultRole: null,
    defaultContent: { type: 'site', site: 'abc' },
    mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
    useCase: 'docsSite',
  });
  const collection = await buildCollection(db.prisma, { organizationId: organization.id, description: 'About', defaultLevel: null });
  const space = await buildSpace(db.prisma, {
    organizationId: organization.id,
    parentId: collection.id,
    deletedAt: new Date(),
    language: 'fr',
  });
  await db.prisma.space.update({
    where: { id: space.id },
    data: { visibility: 'share_link', editMode: null, visitorAuthBackend: 'custom' },
  });

  expect(await plain('Organization', organization.id)).toStrictEqual([
    await db.prisma.organization.findUniqueOrThrow({ where: { id: organization.id } }),
  ]);
  expect(await plain('Collection', collection.id)).toStrictEqual([
    await db.prisma.collection.findUniqueOrThrow({ where: { id: collection.id } }),
  ]);
  const [row] = await plain('Space', space.id);
  expect(row).toStrictEqual(await db.prisma.space.findUniqueOrThrow({ where: { id: space.id } }));
  expect(row).toMatchObject({ visibility: 'share_link', deletedAt: expect.any(Date) });
});
