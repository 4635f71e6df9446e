// The whole API: every domain registers its GraphQL types and contributes its REST module here.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { aboutRest } from './about/index.js';
import { auditRest } from './audit/index.js';
import { changeRequestReviewRest } from './change-request-reviews/index.js';
import { changeRequestRest } from './change-requests/index.js';
import { collectionRest } from './collections/index.js';
import { commentRest } from './comments/index.js';
import { contentImportRest } from './content-import/index.js';
import { customFieldRest } from './custom-fields/index.js';
import { fileRest } from './files/index.js';
import { gitSyncRest } from './git-sync/index.js';
import { grantRest } from './grants/index.js';
import { integrationRest } from './integrations/index.js';
import { invitesRest } from './invites/index.js';
import './jobs/types.js';
import { builder } from './kernel/builder.js';
import { linksRest } from './links/index.js';
import { memberRest } from './members/index.js';
import { openAPIRest } from './openapi/index.js';
import { organizationRest } from './organizations/index.js';
import { pdfRest } from './pdf/index.js';
import { publishingAuthRest } from './publishing-auth/index.js';
import { revisionRest } from './revisions/index.js';
import { searchRest } from './search/index.js';
import { shareLinkRest } from './share-links/index.js';
import { siteRedirectRest } from './site-redirects/index.js';
import { siteStructureRest } from './site-structure/index.js';
import { siteRest } from './sites/index.js';
import { spaceRest } from './spaces/index.js';
import { ssoRest } from './sso/index.js';
import { teamRest } from './teams/index.js';
import { tokenRest } from './tokens/index.js';
import { userRest } from './users/index.js';
import { webhookRest } from './webhooks/index.js';

// Unsorted: field order is declaration order, which is the order REST writes fields it selects by default (urls, permissions).
export const schema = builder.toSchema({ sortSchema: false });

export const restModules = [
  aboutRest,
  userRest,
  tokenRest,
  organizationRest,
  memberRest,
  teamRest,
  auditRest,
  invitesRest,
  ssoRest,
  collectionRest,
  spaceRest,
  revisionRest,
  grantRest,
  changeRequestRest,
  changeRequestReviewRest,
  customFieldRest,
  commentRest,
  siteRest,
  siteStructureRest,
  siteRedirectRest,
  shareLinkRest,
  publishingAuthRest,
  pdfRest,
  fileRest,
  contentImportRest,
  searchRest,
  linksRest,
  integrationRest,
  gitSyncRest,
  openAPIRest,
  webhookRest,
];

/** schema.graphql, as committed at the top of the repository. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
