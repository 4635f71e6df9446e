// What an edit costs follows the change, not the space: a content batch that edits one page, the merge of a change
// request that edited one page (three-way, the space having moved on meanwhile), and an update from the space run the
// same statements, answered by the same number of rows, on a space of 100 pages and on one of 1,000.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageContent } from '../../src/revisions/store.js';
import { publish } from '../revisions/content.js';
import { useApi } from '../support/app.js';
import { buildSpace } from '../support/factories.js';

const { t, world } = useApi({ world: true });

/** A space of `size` pages: sections of nineteen pages each, two levels deep. */
async function pagedSpace(size: number) {
  const { id } = await buildSpace(t.prisma, { organizationId: world.organizationId, title: `${size} pages` });
  const now = t.clock.now();
  const pages = Array.from({ length: size / 20 }, (_, s) => [
    pageContent({ pageId: `${id}s${s}`, title: `Section ${s}`, slug: `section-${s}`, position: s, createdAt: now, updatedAt: now }),
    ...Array.from({ length: 19 }, (_, p) =>
      pageContent({
        pageId: `${id}s${s}p${p}`,
        parentId: `${id}s${s}`,
        title: `Page ${s}.${p}`,
        slug: `page-${s}-${p}`,
        markdown: `# Page ${s}.${p}\n\nAs written at first.\n`,
        position: p,
        createdAt: now,
        updatedAt: now,
      }),
    ),
  ]).flat();
  await publish(t.prisma, id, { pages });
  return id;
}

type Cost = { statements: number; rows: number };

/** The cost of each step on a space of `size` pages. */
async function costs(size: number): Promise<Record<'content' | 'merge' | 'update', Cost>> {
  const spaceId = await pagedSpace(size);
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const token = world.admin.token;
  const open = async () => (await t.request('POST', base, { token, body: { subject: 'Edit' } })).body.id as string;
  const edit = (cr: string, page: string, note: string) =>
    t.counted('POST', `${base}/${cr}/content`, {
      token,
      body: { changes: [{ operation: 'update_page', page: `${spaceId}${page}`, document: { markdown: `# Edited\n\n${note}\n` } }] },
    });
  const [measured, landed, updated] = [await open(), await open(), await open()];
  for (const [cr, page] of [
    [landed, 's1p1'],
    [updated, 's2p2'],
  ]) {
    expect((await edit(cr, page, 'Elsewhere.')).status).toBe(200);
  }
  const content = await edit(measured, 's0p3', 'Measured.');
  expect(content.status, content.text).toBe(200);
  // The space moves on before the merge: a three-way merge.
  expect((await t.request('POST', `${base}/${landed}/merge`, { token })).body.result).toBe('merge');
  const merge = await t.counted('POST', `${base}/${measured}/merge`, { token });
  expect(merge.body.result, merge.text).toBe('merge');
  const update = await t.counted('POST', `${base}/${updated}/update`, { token });
  expect(update.body.result, update.text).toBe('update');
  const cost = ({ statements, rows }: Cost) => ({ statements, rows });
  return { content: cost(content), merge: cost(merge), update: cost(update) };
}

describe('the cost of an edit', () => {
  let small: Awaited<ReturnType<typeof costs>>;
  let large: Awaited<ReturnType<typeof costs>>;
  beforeAll(async () => {
    small = await costs(100);
    large = await costs(1_000);
  });

  it.each(['content', 'merge', 'update'] as const)('%s: the same statements and rows on 1,000 pages as on 100', (step) => {
    expect(large[step]).toEqual(small[step]);
    // Against a count that means nothing: the step reads the page it changed, not a tenth of the smaller space.
    expect(small[step].rows).toBeLessThan(40);
  });
});
