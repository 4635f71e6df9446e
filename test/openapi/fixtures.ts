// OpenAPI specs written straight into the database, as processing would have left them, and the documents the tests
// serve.
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { newId } from '../../src/kernel/ids.js';

/** A valid OpenAPI 3.1 document, titled as asked. */
export const petstore31 = (title = 'Petstore') => ({
  openapi: '3.1.0',
  info: { title, version: '1.0.0' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: {
          '200': { description: 'The pets', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
        },
      },
    },
  },
});

/** A spec that is complete, with `versions` versions (the last one latest), each a minute after the one before. */
export async function buildSpec(
  prisma: PrismaClient,
  {
    organizationId,
    slug,
    versions = 1,
    sourceURL = `https://example.com/${slug}.json`,
  }: { organizationId: string; slug: string; versions?: number; sourceURL?: string | null },
) {
  const start = new Date('2026-01-01T00:00:00.000Z').getTime();
  const spec = await prisma.openAPISpec.create({
    data: {
      id: newId(),
      organizationId,
      slug,
      sourceURL,
      sourceText: sourceURL ? null : JSON.stringify(petstore31(slug)),
      processingState: 'complete',
      lastProcessedAt: new Date(start),
    },
  });
  let lastVersionId: string | null = null;
  for (let i = 0; i < versions; i++) {
    const text = JSON.stringify(petstore31(`${slug} ${i}`));
    const version = await prisma.openAPISpecVersion.create({
      data: {
        id: newId(),
        specId: spec.id,
        url: sourceURL,
        filesystem: { [`${slug}.json`]: JSON.parse(text) },
        contentHash: `hash-${i}`,
        rawText: text,
        rawFormat: 'json',
        createdAt: new Date(start + i * 60_000),
      },
    });
    lastVersionId = version.id;
  }
  return prisma.openAPISpec.update({ where: { id: spec.id }, data: { lastVersionId } });
}
