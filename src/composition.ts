// Where domains plug into others, wired once: what follows the revision store's writes of page versions (the search
// index, the links: src/revisions/hooks.ts), in their statements, and the services every request's context and every
// job run with, which carry those hooks (`pageVersionHooks`): every write of content goes through them; the store
// itself imports neither.

import { changeRequestReviewsActions } from './change-request-reviews/events.js';
import { changeRequestsActions } from './change-requests/events.js';
import { collectionsActions } from './collections/events.js';
import { commentsActions } from './comments/events.js';
import type { Config } from './config.js';
import { contentImportActions } from './content-import/events.js';
import { customFieldsActions } from './custom-fields/events.js';
import type { Database } from './db/client.js';
import { createFileStore } from './files/store.js';
import { gitSyncActions } from './git-sync/events.js';
import { grantsActions } from './grants/events.js';
import { integrationsActions } from './integrations/events.js';
import { invitesActions } from './invites/events.js';
import { type Clock, type Services, systemClock } from './kernel/context.js';
import type { EventHook } from './kernel/events.js';
import { createFetcher } from './kernel/fetcher.js';
import { PageTokens } from './kernel/pagination.js';
import { deriveKey } from './kernel/secrets.js';
import { pageLinksHook } from './links/writing.js';
import type { Logger } from './logger.js';
import { createMailer } from './mail.js';
import { membersActions } from './members/events.js';
import { openAPIActions } from './openapi/events.js';
import { organizationsActions } from './organizations/events.js';
import { instanceAdminsOf } from './organizations/instance-admins.js';
import { publishingAuthActions } from './publishing-auth/events.js';
import type { PageVersionHook } from './revisions/hooks.js';
import { searchIndexHook } from './search/indexing.js';
import { shareLinksActions } from './share-links/events.js';
import { siteRedirectsActions } from './site-redirects/events.js';
import { siteStructureActions } from './site-structure/events.js';
import { sitesActions } from './sites/events.js';
import { spacesActions } from './spaces/events.js';
import { ssoActions } from './sso/events.js';
import { teamsActions } from './teams/events.js';
import { tokensActions } from './tokens/events.js';
import { usersActions } from './users/events.js';
import { creatorGoneHook, webhookDeliveryHook } from './webhooks/delivery.js';
import { webhooksActions } from './webhooks/events.js';

export const pageVersionHooks: readonly PageVersionHook[] = [searchIndexHook, pageLinksHook];

/** What follows every recorded event (src/kernel/events.ts), in its statement. */
export const eventHooks: readonly EventHook[] = [webhookDeliveryHook, creatorGoneHook];

/** Every action the product records, with its label: the domains' own lists (src/<domain>/events.ts), merged. */
export const auditActions: Readonly<Record<string, string>> = {
  ...tokensActions,
  ...usersActions,
  ...changeRequestReviewsActions,
  ...changeRequestsActions,
  ...collectionsActions,
  ...commentsActions,
  ...contentImportActions,
  ...customFieldsActions,
  ...gitSyncActions,
  ...grantsActions,
  ...integrationsActions,
  ...invitesActions,
  ...membersActions,
  ...openAPIActions,
  ...organizationsActions,
  ...publishingAuthActions,
  ...shareLinksActions,
  ...siteRedirectsActions,
  ...siteStructureActions,
  ...sitesActions,
  ...spacesActions,
  ...ssoActions,
  ...teamsActions,
  ...webhooksActions,
};

export interface ServicesOptions {
  db: Database;
  config: Config;
  /** The instance secret, from which the page tokens' key is derived. */
  secret: Buffer;
  logger: Logger;
  clock?: Clock;
}

/** The services over one database: what the app's requests and its background jobs use. */
export function createServices({ db, config, secret, logger, clock = systemClock }: ServicesOptions): Services {
  return {
    prisma: db.prisma,
    sql: db.sql,
    config,
    clock,
    pageTokens: new PageTokens(deriveKey(secret, 'page-cursor')),
    mailer: createMailer(config.mail, logger),
    fetcher: createFetcher({ allowPrivateNetwork: config.allowPrivateNetwork, idleTimeoutMs: config.fetchIdleTimeoutSeconds * 1000 }),
    secret,
    files: createFileStore(config),
    logger,
    pageVersionHooks,
    eventHooks,
    auditActions,
    instanceAdmins: instanceAdminsOf(db.sql, config.instanceAdmins),
  };
}
