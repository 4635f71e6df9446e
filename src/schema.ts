// The whole API: every domain registers its GraphQL types and contributes its REST module here.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { aboutRest } from './about/index.js';
import { changeRequestRest } from './change-requests/index.js';
import { collectionRest } from './collections/index.js';
import { commentRest } from './comments/index.js';
import { customFieldRest } from './custom-fields/index.js';
import { grantRest } from './grants/index.js';
import { invitesRest } from './invites/index.js';
import { builder } from './kernel/builder.js';
import { memberRest } from './members/index.js';
import { organizationRest } from './organizations/index.js';
import { revisionRest } from './revisions/index.js';
import { spaceRest } from './spaces/index.js';
import { ssoRest } from './sso/index.js';
import { teamRest } from './teams/index.js';
import { userRest } from './users/index.js';

// Unsorted: field order is declaration order, which is the order REST writes fields it selects by default (urls, permissions).
export const schema = builder.toSchema({ sortSchema: false });

export const restModules = [
  aboutRest,
  userRest,
  organizationRest,
  memberRest,
  teamRest,
  invitesRest,
  ssoRest,
  collectionRest,
  spaceRest,
  revisionRest,
  grantRest,
  changeRequestRest,
  customFieldRest,
  commentRest,
];

/** schema.graphql, as committed at the top of the repository. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
