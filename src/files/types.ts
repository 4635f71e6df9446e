// An organization's storage: the bytes its rows name and the quota that bounds them (usage.ts), for its admins.
import { authorize, organizations } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { Organization } from '../organizations/types.js';
import { type StorageUsage, storageUsageOf } from './usage.js';

const OrganizationStorage = builder.objectRef<StorageUsage>('OrganizationStorage').implement({
  description: 'The bytes of files an organization’s content names, and the quota (STORAGE_QUOTA_MB) that bounds them.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'organization-storage' }),
    usedBytes: t.exposeFloat('usedBytes', {
      description:
        'Distinct bytes its rows name: every version of every file of its spaces (history, change requests and deleted spaces until purged), live PDF exports and writes in progress.',
    }),
    quotaBytes: t.exposeFloat('quotaBytes', { nullable: true, description: 'The quota; null when none is set.' }),
  }),
});

builder.objectFields(Organization, (t) => ({
  storage: t.field({
    type: OrganizationStorage,
    description: 'The organization’s storage usage and quota. Admins only.',
    resolve: async (org, _args, ctx) => {
      await authorize(ctx, organizations, org.id, 'admin');
      return storageUsageOf(ctx, org.id);
    },
  }),
}));
