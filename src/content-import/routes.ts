// REST endpoint of content imports (GitBook's, last published in @gitbook/api 0.143), and the REST shape of its answer.
import { type RestModule, route } from '../../rest/route.js';

export const contentImportRest: RestModule = {
  fragments: { ContentImport: 'revision importedResources totalResources' },
  routes: [
    route(
      'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content/import',
      'importContentInChangeRequest',
      'importContentInChangeRequest(spaceId: $spaceId, id: $changeRequestId, input: $body)',
      { status: 201, spec: '0143' },
    ),
  ],
};
