// REST endpoints of content imports (GitBook's, last published in @gitbook/api 0.143) and of import runs (GitBook's
// imports, under the singular `/org/`), and the REST shapes of their answers.
import { type RestModule, route } from '../../rest/route.js';

const runs = '/v1/org/:organizationId/imports';

export const contentImportRest: RestModule = {
  fragments: {
    ContentImport: 'revision importedResources totalResources',
    ImportRun: `object id status reason source target site: siteId createdBy: createdById createdAt updatedAt startedAt completedAt
      urls pages`,
    ImportRunTarget: 'space: spaceId changeRequest: changeRequestId page: pageId',
    ImportRunPage: 'id: pageId sourceURL type status',
  },
  routes: [
    route(
      'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content/import',
      'importContentInChangeRequest',
      'importContentInChangeRequest(spaceId: $spaceId, id: $changeRequestId, input: $body)',
      { status: 201, spec: '0143' },
    ),
    route(`GET ${runs}`, 'listImportRuns', 'organization(id: $organizationId).importRuns'),
    route(`POST ${runs}`, 'startImportRun', 'startImportRun(organizationId: $organizationId, input: $body)', { status: 201 }),
    route(`GET ${runs}/:importRunId`, 'getImportRun', 'organization(id: $organizationId).importRun(id: $importRunId)'),
    route(`POST ${runs}/:importRunId/cancel`, 'cancelImportRun', 'cancelImportRun(organizationId: $organizationId, id: $importRunId)'),
  ],
};
