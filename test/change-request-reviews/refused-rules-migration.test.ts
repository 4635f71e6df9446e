// Merge rules stored before they were enforced: the upgrade removes the rules this service refuses (require_agent_review,
// custom) from every organization's and space's configuration, turns one left without a rule into "none", and leaves
// everything else as it was, values of an unexpected shape included.
import { expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { useUpgradedApi } from '../support/app.js';
import { buildOrganization, buildSpace } from '../support/factories.js';

const stored: Record<string, { kind: 'organization' | 'space'; id: string; after: unknown }> = {};

const { t } = useUpgradedApi('_refused_merge_rules', { fill });

async function fill({ prisma }: Database): Promise<void> {
  const subject = { rule: 'require_change_request_subject' };
  const agent = { rule: 'require_agent_review' };
  const custom = { rule: 'custom', expression: 'changeRequest.subject != ""' };
  const organization = async (name: string, mergeRules: Prisma.InputJsonValue, after: unknown) => {
    stored[name] = { kind: 'organization', id: (await buildOrganization(prisma, { mergeRules })).organization.id, after };
  };
  const space = async (name: string, mergeRules: Prisma.InputJsonValue, after: unknown) => {
    stored[name] = { kind: 'space', id: (await buildSpace(prisma, { mergeRules })).id, after };
  };
  await organization('mixed', { type: 'rules', rules: [agent, subject, custom] }, { type: 'rules', rules: [subject] });
  await organization('refused only', { type: 'rules', rules: [custom] }, { type: 'none' });
  await organization('none', { type: 'none' }, { type: 'none' });
  await space('agent only', { type: 'rules', rules: [agent] }, { type: 'none' });
  await space('enforced', { type: 'rules', rules: [subject] }, { type: 'rules', rules: [subject] });
  await space('inherit', { type: 'inherit' }, { type: 'inherit' });
  await space('empty', { type: 'rules', rules: [] }, { type: 'rules', rules: [] });
  await space('odd items', { type: 'rules', rules: [null, 7, agent] }, { type: 'rules', rules: [null, 7] });
  await space('odd rules', { type: 'rules', rules: 'custom' }, { type: 'rules', rules: 'custom' });
  await space('odd value', ['custom'], ['custom']);
}

it('removes the refused rules from stored configurations, and leaves the rest as it was', async () => {
  for (const [name, { kind, id, after }] of Object.entries(stored)) {
    const row =
      kind === 'organization'
        ? await t.prisma.organization.findUniqueOrThrow({ where: { id } })
        : await t.prisma.space.findUniqueOrThrow({ where: { id } });
    expect(row.mergeRules, name).toEqual(after);
  }
});
