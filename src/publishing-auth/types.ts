// The PublishingAuth type (a site's visitor authentication settings, with its private key) and Site.publishingAuth,
// for the site's admins only: the key lets whoever holds it admit anyone to a visitor-auth site.
import type { PublishingAuth as PublishingAuthRow } from '../generated/prisma/client.js';
import { authorizeRow, type Guard, inheritedLevel } from '../kernel/authorize.js';
import { builder } from '../kernel/builder.js';
import { policies } from '../kernel/permissions.js';
import { unseal } from '../kernel/sealed.js';
import { sites } from '../sites/access.js';
import { Site } from '../sites/types.js';
import { privateKeySealedFor, publishingAuthOf, type VisitorAuthBackend } from './service.js';

export const VisitorAuthBackendEnum = builder.enumType('VisitorAuthBackend', {
  description: 'custom: the team’s own backend signs visitors’ tokens; integration: an integration installed on the site does.',
  values: ['custom', 'integration'] as const,
});

/** A site's visitor authentication, with its key: for the site's admins alone (policies.publishingAuth). */
const publishingAuths: Guard<PublishingAuthRow> = {
  kind: 'Publishing auth',
  policy: policies.publishingAuth,
  level: inheritedLevel('publishing auth level', sites, (row) => row.siteId),
};

export const PublishingAuth = builder.objectRef<PublishingAuthRow>('PublishingAuth').implement({
  access: publishingAuths,
  description: 'How visitors of a visitor-auth site are authenticated: JWTs signed (HS256) with the private key.',
  fields: (t) => ({
    object: t.string({ resolve: () => 'publishing-auth' }),
    backend: t.field({ type: VisitorAuthBackendEnum, resolve: (auth) => auth.backend as VisitorAuthBackend }),
    privateKey: t.string({
      description: 'The key visitors’ tokens are signed with (HS256).',
      resolve: (auth, _args, ctx) => unseal(ctx.secret, privateKeySealedFor(auth.siteId), auth.privateKeyCiphertext),
    }),
    fallbackURL: t.exposeString('fallbackURL', { nullable: true, description: 'Where visitors whose token is invalid are sent.' }),
    logoutURL: t.exposeString('logoutURL', { nullable: true, description: 'Where visitors log out of the custom backend.' }),
    integration: t.exposeString('integration', { nullable: true, description: 'The integration that authenticates visitors.' }),
  }),
});

builder.objectFields(Site, (t) => ({
  publishingAuth: t.field({
    type: PublishingAuth,
    description: 'The site’s visitor authentication settings (site `admin`); a first read creates them, with a fresh key.',
    resolve: async (site, _args, ctx) => {
      await authorizeRow(ctx, sites, site, 'admin');
      return publishingAuthOf(ctx, site);
    },
  }),
}));
