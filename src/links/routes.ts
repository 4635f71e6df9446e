// REST endpoints of links (spec 0.181.0, the last with them): a space's links, a change request page's links, and
// the backlinks of a change request's file; and the REST shapes of their items.
import { type RestModule, route } from '../../rest/route.js';

const changeRequest = 'changeRequest(spaceId: $spaceId, id: $changeRequestId)';
export const linksRest: RestModule = {
  fragments: {
    ContentReferenceUsage: 'status relation targetReference locationReferences',
    ContentLocationPage: 'kind organization space page',
    ContentLocationFile: 'kind organization space file',
    ContentLocationURL: 'kind url',
  },
  routes: [
    route('GET /v1/spaces/:spaceId/links', 'listSpaceLinks', 'space(id: $spaceId).links(status: $status)', { spec: '0181' }),
    route(
      'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
      'listPageLinksInChangeRequest',
      `${changeRequest}.pageLinks(pageId: $pageId)`,
      { spec: '0181' },
    ),
    route(
      'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks',
      'listChangeRequestFileBacklinks',
      `${changeRequest}.fileBacklinks(fileId: $fileId)`,
      { spec: '0181' },
    ),
  ],
};
