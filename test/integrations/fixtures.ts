// Images, manifests, and integrations and installations written with Prisma directly (for the tests that need many).
import type { Integration, IntegrationInstallation, Prisma, PrismaClient } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';

/** Base64 content of the smallest images of each kind the API takes. */
export const images = {
  png: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  gif: 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  jpeg: Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
  ]).toString('base64'),
  webp: Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([0x1a, 0, 0, 0]),
    Buffer.from('WEBPVP8L'),
    Buffer.from([0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]),
  ]).toString('base64'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>').toString('base64'),
};

/** A publish body: the required fields, and what the test adds. */
export const manifest = (organization: string, overrides: Record<string, unknown> = {}) => ({
  organization,
  title: 'Example',
  description: 'An example integration.',
  script: 'export default {};',
  scopes: ['space:content:read'],
  ...overrides,
});

type IntegrationOverrides = Partial<Omit<Prisma.IntegrationUncheckedCreateInput, 'ownerOrganizationId'>> & {
  ownerOrganizationId: string;
};

/** An integration as a publish would have written it (its script a storage key that names nothing stored). */
export function buildIntegration(prisma: PrismaClient, data: IntegrationOverrides): Promise<Integration> {
  const name = data.name ?? `integration-${newId().toLowerCase()}`;
  return prisma.integration.create({
    data: { id: newId(), name, title: name.slice(0, 30), description: 'Built', script: '0'.repeat(64), visibility: 'public', ...data },
  });
}

export function buildInstallation(
  prisma: PrismaClient,
  data: Omit<Prisma.IntegrationInstallationUncheckedCreateInput, 'id'>,
): Promise<IntegrationInstallation> {
  return prisma.integrationInstallation.create({ data: { id: newId(), ...data } });
}
