// Content written before links to pages and files were stored by id: the migration lists the page versions whose
// markdown links to a page or a file by path, and the backfill (src/links/backfill.ts) resolves each one from its
// page's file in the revision that wrote it, batch after batch, then the API lists those links in-app and reads them
// as references and as paths from the pages' files as they are now.
import { expect, it } from 'vitest';
import { pageVersionHooks } from '../../src/composition.js';
import type { Database } from '../../src/db/client.js';
import { installJobQueue } from '../../src/jobs/queue.js';
import { startScheduledJobs } from '../../src/jobs/schedule.js';
import { backfillLinks } from '../../src/links/backfill.js';
import { writeRevision } from '../../src/revisions/store.js';
import { schedule } from '../../src/tasks.js';
import { file, page, publish } from '../revisions/content.js';
import { useUpgradedApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';
import { until } from '../support/until.js';
import { buildWorld, type World } from '../support/world.js';

let world: World;
let spaceId: string;
/** The versions written before the upgrade, by what they are. */
const versions: Record<'welcome' | 'guide' | 'installBefore' | 'installMoved' | 'drafted', string> = {
  welcome: '',
  guide: '',
  installBefore: '',
  installMoved: '',
  drafted: '',
};

const GUIDE = 'See [install](./install.md#linux), ![diagram](../.gitbook/assets/diagram.png) and [missing](nowhere).\n';

const versionOf = async (pageId: string, validFrom: number, line = 'main') =>
  (await database.prisma.pageVersion.findFirstOrThrow({ where: { spaceId, pageId, validFrom, line } })).id;

// A database as it stood before links were stored by id: the migrations before it, and content with relative links.
const { t, database } = useUpgradedApi('_link_backlog', { fill });

async function fill({ prisma }: Database, url: string): Promise<void> {
  // The job queue's schema too, as the migrations come with it: a write of links to URLs enqueues their check.
  await installJobQueue(url);
  world = await buildWorld(prisma);
  spaceId = (await buildSpace(prisma, { organizationId: world.organizationId, title: 'Legacy' })).id;
  // A first revision: Welcome is README.md, Guide guide/README.md (Install, guide/install.md, is its subpage), the
  // diagram .gitbook/assets/diagram.png.
  const first = await publish(prisma, spaceId, {
    pages: [
      page('welcome', 'Welcome', { markdown: 'Read [the guide](guide/README.md).\n', position: 0 }),
      page('guide', 'Guide', { markdown: GUIDE, position: 1 }),
      page('install', 'Install', { parentId: 'guide', markdown: 'Back to [the guide](../guide/).\n' }),
      page('other', 'Other', { markdown: 'Nothing to link.\n', position: 2 }),
    ],
    files: [file('diagram', 'diagram.png', { contentType: 'image/png' })],
  });
  // The next: Install moves under Other (other/install.md), written again; Guide, now guide.md, is not. Its
  // `./install.md` named Install in the first revision, where it was written, and names nothing in the next.
  const moved = await publish(prisma, spaceId, {
    pages: [page('install', 'Install', { parentId: 'other', markdown: 'Back to [the guide](../guide.md#top).\n' })],
  });
  // A change request's line over revision 2, with a page of its own.
  await prisma.$transaction((tx) =>
    writeRevision(
      tx,
      pageVersionHooks,
      { spaceId, line: 'draft-line', parent: moved, type: 'edits', createdById: null },
      { pages: [page('drafted', 'Drafted', { markdown: 'See [install](other/install.md).\n', position: 3 })] },
    ),
  );
  // Another space links to URLs only: nothing to resolve.
  const plain = await buildSpace(prisma, { organizationId: world.organizationId, title: 'Plain' });
  await publish(prisma, plain.id, { pages: [page('plain', 'Plain', { markdown: 'See <https://example.com>.\n' })] });

  versions.welcome = await versionOf('welcome', first.seq);
  versions.guide = await versionOf('guide', first.seq);
  versions.installBefore = await versionOf('install', first.seq);
  versions.installMoved = await versionOf('install', moved.seq);
  versions.drafted = await versionOf('drafted', 1, 'draft-line');
}

const links = async () => {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/links`, { token: world.admin.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const read = async (pageId: string, format: 'markdown' | 'document') => {
  const res = await t.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=${format}`, { token: world.admin.token });
  expect(res.status, res.text).toBe(200);
  return res.body[format];
};

it('lists the versions that link by path, resolves each in the revision that wrote it, batch after batch, and empties the list', async () => {
  const listed = await database.prisma.linkBacklog.findMany();
  expect(listed.map((row) => row.pageVersionId).sort()).toEqual(Object.values(versions).sort());
  // Until then, a path is what names nothing: Guide by two, Install, the diagram, and the missing page.
  expect((await links()).stats).toEqual({ total: 4, broken: { total: 4 } });
  // At start-up, the scheduler enqueues the backfill while the list is not empty (no worker runs it here).
  const scheduled = startScheduledJobs(t.app.services, schedule);
  try {
    const enqueued = () => database.prisma.backgroundJob.count({ where: { kind: 'link-backfill' } });
    expect(await until(enqueued, (count) => count > 0)).toBe(1);
  } finally {
    scheduled.stop();
  }

  expect(await backfillLinks(database.prisma, 1)).toEqual({ versions: 5, resolved: 5 });
  expect(await database.prisma.linkBacklog.count()).toBe(0);

  const after = await links();
  expect(
    after.items.map((item: any) => [
      item.status,
      item.targetReference.url ?? item.targetReference.page?.id ?? item.targetReference.file?.id,
      item.locationReferences.map((location: any) => location.page.id),
    ]),
  ).toEqual([
    ['in-app', 'diagram', ['guide']],
    ['in-app', 'guide', ['install', 'welcome']],
    ['in-app', 'install', ['guide']],
    ['broken', 'nowhere', ['guide']],
  ]);
  // Stored as references, read as paths from each page's file now: Guide is guide.md, Install other/install.md.
  expect(JSON.stringify(await read('guide', 'document'))).toContain(JSON.stringify({ kind: 'anchor', page: 'install', anchor: 'linux' }));
  expect(await read('guide', 'markdown')).toBe(
    'See [install](other/install.md#linux), ![diagram](.gitbook/assets/diagram.png) and [missing](nowhere).\n',
  );
  expect(await read('install', 'markdown')).toBe('Back to [the guide](../guide.md#top).\n');
  expect(await read('welcome', 'markdown')).toBe('Read [the guide](guide.md).\n');

  // The history and the change request's line mean what they meant: each in its own revision's tree.
  const markdownOf = async (id: string) => (await database.prisma.pageVersion.findUniqueOrThrow({ where: { id } })).markdown;
  expect(await markdownOf(versions.installBefore)).toBe('Back to [the guide](page-id:guide).\n');
  expect(await markdownOf(versions.drafted)).toBe('See [install](page-id:install).\n');

  // Nothing is left to do: a second run changes nothing.
  expect(await backfillLinks(database.prisma)).toEqual({ versions: 0, resolved: 0 });
});
