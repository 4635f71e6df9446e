// REST endpoints of an organization's OpenAPI specifications and their versions, and their REST shapes.
import { type RestModule, route } from '../../rest/route.js';

const specs = '/v1/orgs/:organizationId/openapi';
const spec = `${specs}/:specSlug`;
const specField = 'organization(id: $organizationId).openAPISpec(slug: $specSlug)';
const specKey = 'organizationId: $organizationId, slug: $specSlug';

export const openAPIRest: RestModule = {
  fragments: {
    OpenAPISpec: `object id createdAt updatedAt slug sourceURL visibility processingState lastVersion: lastVersionId lastProcessedAt
      lastProcessErrorCode lastProcessedErrors lastProcessedErrorCount permissions urls`,
    OpenAPISpecVersion: 'object id createdAt url urls',
    OpenAPISpecContentUrls: 'source public @keepNull',
  },
  routes: [
    route(`GET ${specs}`, 'listOpenAPISpecs', 'organization(id: $organizationId).openAPISpecs'),
    route(`POST ${specs}`, 'createOpenAPISpec', 'createOpenAPISpec(organizationId: $organizationId, input: $body)', { status: 201 }),
    route(`GET ${spec}`, 'getOpenAPISpecBySlug', specField),
    route(`PUT ${spec}`, 'createOrUpdateOpenAPISpecBySlug', `putOpenAPISpec(${specKey}, input: $body).spec`, {
      alternateStatus: { status: 201, when: 'putOpenAPISpec.created' },
    }),
    // GitBook's spec: 205 when it deleted the spec, 204 when there was none.
    route(`DELETE ${spec}`, 'deleteOpenAPISpecBySlug', `deleteOpenAPISpec(${specKey})`, {
      status: 205,
      alternateStatus: { status: 204, when: '!deleteOpenAPISpec' },
    }),
    route(`GET ${spec}/versions`, 'listOpenAPISpecVersions', `${specField}.versions`),
    route(`GET ${spec}/versions/latest`, 'getLatestOpenAPISpecVersion', `${specField}.latestVersion`),
    route(`GET ${spec}/versions/latest/content`, 'getLatestOpenAPISpecVersionContent', `${specField}.latestVersion.content`),
    route(`GET ${spec}/versions/latest/content/raw`, 'getLatestOpenAPISpecVersionContentRaw', `${specField}.latestVersion.rawContent`),
    route(`GET ${spec}/versions/:versionId`, 'getOpenAPISpecVersionById', `${specField}.version(id: $versionId)`),
    route(`GET ${spec}/versions/:versionId/content`, 'getOpenAPISpecVersionContentById', `${specField}.version(id: $versionId).content`),
  ],
};
