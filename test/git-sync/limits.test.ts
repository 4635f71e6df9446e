// Imports under the Git size limits, through the API and its job, with small caps (GIT_MAX_OBJECT_MB=1,
// GIT_MAX_IMPORT_MB=2): a repository whose 256 MB blob of zeros comes in a pack of a few hundred KB fails, at the
// blob's header, with the reason recorded and the process's memory where it was; so does one whose files come to more
// than the import cap together; a repository under the caps imports as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { gitbookRepository, settled } from './fixtures.js';
import { type GitServer, serveGit } from './git-server.js';

const MB = 1024 * 1024;
const BRANCH = 'refs/heads/main';

const { t, world } = useApi({
  world: true,
  env: { ALLOW_PRIVATE_NETWORK: 'true', GIT_MAX_OBJECT_MB: '1', GIT_MAX_IMPORT_MB: '2' },
  jobs: 1,
});
let server: GitServer;

beforeAll(async () => {
  server = await serveGit();
});
afterAll(async () => {
  await server?.close();
});

const newSpace = async () => (await buildSpace(t.prisma, { organizationId: world.organizationId, title: 'Docs' })).id;
const revisionOf = async (spaceId: string) => (await t.prisma.space.findUniqueOrThrow({ where: { id: spaceId } })).revisionId;

/** Asks for an import of the repository's main branch and answers the operation once it has ended. */
async function imported(spaceId: string, repository: string) {
  const res = await t.request('POST', `/v1/spaces/${spaceId}/git/import`, {
    token: world.admin.token,
    body: { url: server.urlOf(repository), ref: BRANCH },
  });
  expect(res.status, res.text).toBe(204);
  return (await settled(t, spaceId, world.admin.token)).body.operation;
}

describe('Git imports under the size limits', () => {
  it('fails an import whose blob is larger than GIT_MAX_OBJECT_MB, before inflating it, and changes nothing', async () => {
    // git hashes and compresses 256 MB: seconds, more on a busy machine.
    server.createRepository('zeros', { 'README.md': '# Zeros\n' });
    server.commitZeros('zeros', 'zeros.bin', 256 * MB);
    expect(server.sizeOnDisk('zeros')).toBeLessThan(MB);
    const spaceId = await newSpace();
    const before = await revisionOf(spaceId);
    const peakBefore = process.resourceUsage().maxRSS * 1024;

    const operation = await imported(spaceId, 'zeros');
    expect(operation).toMatchObject({
      state: 'failure',
      direction: 'import',
      error: 'The repository holds an object of 256 MB, more than the 1 MB one object may have (GIT_MAX_OBJECT_MB).',
    });
    // Inflating the blob would have taken 256 MB at least (isomorphic-git holds it whole, twice while it joins it).
    expect(process.resourceUsage().maxRSS * 1024 - peakBefore).toBeLessThan(64 * MB);
    expect(await revisionOf(spaceId)).toBe(before);
  }, 120_000);

  it('fails an import whose objects come to more than GIT_MAX_IMPORT_MB together', async () => {
    const parts = Object.fromEntries([1, 2, 3].map((n) => [`part-${n}.md`, `# Part ${n}\n\n${`Line of part ${n}.\n`.repeat(50_000)}`]));
    server.createRepository('parts', parts);
    const operation = await imported(await newSpace(), 'parts');
    expect(operation).toMatchObject({
      state: 'failure',
      error: 'The repository’s objects come to more than the 2 MB one operation may inflate (GIT_MAX_IMPORT_MB).',
    });
  });

  it('imports a repository under the caps', async () => {
    server.createRepository('docs', gitbookRepository());
    const spaceId = await newSpace();
    expect(await imported(spaceId, 'docs')).toMatchObject({ state: 'success', direction: 'import' });
    const pages = await t.request('GET', `/v1/spaces/${spaceId}/content/pages`, { token: world.admin.token });
    expect(pages.body.pages.map((page: { title: string }) => page.title)).toEqual(['Welcome', 'Getting started', 'Reference']);
  });
});
