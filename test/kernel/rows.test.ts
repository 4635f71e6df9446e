// The list engine reads rows with plain SQL when the selection needs no relation (src/kernel/lists.ts): those rows
// must be exactly what Prisma returns for the same ids, value types included, or fields would resolve differently.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildCollection, buildOrganization, buildSpace } from '../support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const plain = (table: string, id: string) => t.app.db.sql(Prisma.sql`SELECT * FROM ${Prisma.raw(`"${table}"`)} WHERE id = ${id}`);

it('reads the same Organization, Collection and Space rows as Prisma, enums, JSON, arrays and dates included', async () => {
  const { organization } = await buildOrganization(t.prisma, {
    emailDomains: ['example.com'],
    defaultRole: null,
    defaultContent: { type: 'site', site: 'abc' },
    mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
    useCase: 'docsSite',
  });
  const collection = await buildCollection(t.prisma, { organizationId: organization.id, description: 'About', defaultLevel: null });
  const space = await buildSpace(t.prisma, {
    organizationId: organization.id,
    parentId: collection.id,
    deletedAt: new Date(),
    language: 'fr',
  });
  await t.prisma.space.update({
    where: { id: space.id },
    data: { visibility: 'share_link', editMode: null, visitorAuthBackend: 'custom' },
  });

  expect(await plain('Organization', organization.id)).toStrictEqual([
    await t.prisma.organization.findUniqueOrThrow({ where: { id: organization.id } }),
  ]);
  expect(await plain('Collection', collection.id)).toStrictEqual([
    await t.prisma.collection.findUniqueOrThrow({ where: { id: collection.id } }),
  ]);
  const [row] = await plain('Space', space.id);
  expect(row).toStrictEqual(await t.prisma.space.findUniqueOrThrow({ where: { id: space.id } }));
  expect(row).toMatchObject({ visibility: 'share_link', deletedAt: expect.any(Date) });
});
