// The whole API: every domain registers its GraphQL types and contributes its REST route table here.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './kernel/builder.js';
import { collectionRoutes } from './collections/index.js';
import { organizationRoutes } from './organizations/index.js';
import { spaceRoutes } from './spaces/index.js';

export const schema = builder.toSchema();

export const routes = [...organizationRoutes, ...collectionRoutes, ...spaceRoutes];

/** schema.graphql, as committed at the top of the repository. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
