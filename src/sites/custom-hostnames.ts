// The CustomHostname type (GitBook's, with the claim's proof under `verification`), the `customHostname` query and the
// mutations that revalidate and release a claim (claims.ts). Only admins of the claiming organization see a claim.
import { z } from 'zod';
import type { HostClaim } from '../generated/prisma/client.js';
import { HostClaimKind, HostClaimState } from '../generated/prisma/enums.js';
import { builder, prismaEnum } from '../kernel/builder.js';
import { apiUrl } from '../kernel/urls.js';
import { customHostname, removeCustomHostname, revalidateCustomHostname } from './claims.js';
import { type ProofRecord, proofRecord } from './proof.js';

const CustomHostnameSiteTarget = builder.objectRef<{ site: string }>('CustomHostnameSiteTarget').implement({
  description: 'A site that claims the host as its custom hostname.',
  fields: (t) => ({ type: t.string({ resolve: () => 'site' }), site: t.exposeString('site') }),
});

const CustomHostnameOrganizationTarget = builder.objectRef<{ organization: string }>('CustomHostnameOrganizationTarget').implement({
  description: 'An organization that claims the host for its sites’ proxies.',
  fields: (t) => ({ type: t.string({ resolve: () => 'organization' }), organization: t.exposeString('organization') }),
});

const CustomHostnameTarget = builder.unionType('CustomHostnameTarget', {
  types: [CustomHostnameSiteTarget, CustomHostnameOrganizationTarget],
  resolveType: (target) => ('site' in target ? CustomHostnameSiteTarget : CustomHostnameOrganizationTarget),
});

const CustomHostnameKindEnum = prismaEnum(
  'CustomHostnameKind',
  HostClaimKind,
  'hostname: a site’s custom hostname; proxy: the host of the organization’s proxy origins.',
);

const CustomHostnameStateEnum = prismaEnum(
  'CustomHostnameState',
  HostClaimState,
  'pending: not proven yet; active: proven (or set before proof was required, until its first periodic check), in ' +
    'effect; failed: was active, and a later check did not find the proof: out of effect until it is found again.',
);

const CustomHostnameRecord = builder.objectRef<ProofRecord>('CustomHostnameRecord').implement({
  description: 'The DNS record that proves the claim.',
  fields: (t) => ({
    type: t.exposeString('type'),
    name: t.exposeString('name'),
    value: t.exposeString('value'),
  }),
});

const CustomHostnameVerification = builder.objectRef<HostClaim>('CustomHostnameVerification').implement({
  description: 'The proof of the claim (an extension of GitBook’s CustomHostname): the DNS record to publish, and what checks found.',
  fields: (t) => ({
    state: t.expose('state', { type: CustomHostnameStateEnum }),
    kind: t.expose('kind', { type: CustomHostnameKindEnum }),
    record: t.field({ type: CustomHostnameRecord, resolve: (claim) => proofRecord(claim) }),
    grandfathered: t.exposeBoolean('grandfathered', {
      description: 'Set before proof was required: active without proof until its first periodic check.',
    }),
    checkQueued: t.boolean({ description: 'Whether a check is waiting to be done.', resolve: (claim) => claim.dueAt !== null }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime', nullable: true, description: 'The last check.' }),
    verifiedAt: t.expose('verifiedAt', { type: 'DateTime', nullable: true, description: 'The last check that found the record.' }),
    lapsedAt: t.expose('lapsedAt', { type: 'DateTime', nullable: true, description: 'When the claim last went from active to failed.' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'What the last check found instead of the record.' }),
  }),
});

const CustomHostnameUrls = builder.objectRef<{ location: string }>('CustomHostnameUrls').implement({
  fields: (t) => ({ location: t.exposeString('location', { description: 'URL of the custom hostname in the API.' }) }),
});

export const CustomHostname = builder.objectRef<HostClaim>('CustomHostname').implement({
  description:
    'A claim of a host: a site’s custom hostname, or the host of an organization’s proxy origins. It takes effect once ' +
    'proven by a DNS TXT record (`verification.record`).',
  fields: (t) => ({
    object: t.string({ resolve: () => 'custom-hostname' }),
    hostname: t.exposeString('host'),
    target: t.field({
      type: CustomHostnameTarget,
      resolve: (claim) => (claim.siteId ? { site: claim.siteId } : { organization: claim.organizationId }),
    }),
    isActive: t.boolean({ description: 'Whether the claim is in effect.', resolve: (claim) => claim.state === 'active' }),
    status: t.string({
      nullable: true,
      description: 'GitBook’s status: dns_passed while active; absent otherwise (see `verification`).',
      resolve: (claim) => (claim.state === 'active' ? 'dns_passed' : null),
    }),
    urls: t.field({
      type: CustomHostnameUrls,
      resolve: (claim, _args, ctx) => ({ location: apiUrl(ctx, `custom-hostnames/${claim.host}`) }),
    }),
    verification: t.field({ type: CustomHostnameVerification, resolve: (claim) => claim }),
  }),
});

/** A claimed host, as the path names it (a hostname, or a proxy's host, of at most 512 characters). */
const hostnameRule = z.string().min(1).max(512);

builder.queryFields((t) => ({
  customHostname: t.field({
    type: CustomHostname,
    description: 'The claim of a host (any case), for the admins of the claiming organization; not found for anyone else.',
    args: { hostname: t.arg.string({ required: true, validate: hostnameRule }) },
    resolve: (_root, args, ctx) => customHostname(ctx, args.hostname),
  }),
}));

builder.mutationFields((t) => ({
  revalidateCustomHostname: t.boolean({
    description: 'Has the claim’s DNS proof checked now, in the background; admins of the claiming organization.',
    args: { hostname: t.arg.string({ required: true, validate: hostnameRule }) },
    resolve: async (_root, args, ctx) => {
      await revalidateCustomHostname(ctx, args.hostname);
      return true;
    },
  }),
  removeCustomHostname: t.boolean({
    description:
      'Releases a claim: the site’s hostname, or the proxies of the organization’s sites on that host, are removed with ' +
      'it; admins of the claiming organization. False when nobody claims the host.',
    args: { hostname: t.arg.string({ required: true, validate: hostnameRule }) },
    resolve: (_root, args, ctx) => removeCustomHostname(ctx, args.hostname),
  }),
}));
