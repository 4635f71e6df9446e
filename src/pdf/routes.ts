// REST endpoints of the PDF export of a change request's content and of a space's current content.
import { type RestModule, route } from '../../rest/route.js';

export const pdfRest: RestModule = {
  routes: [
    // `only` and `page` bind the query parameters of the same names.
    route(
      'GET /v1/spaces/:spaceId/change-requests/:changeRequestId/pdf',
      'getChangeRequestPDF',
      'changeRequest(spaceId: $spaceId, id: $changeRequestId).pdf',
    ),
    route('GET /v1/spaces/:spaceId/pdf', 'getSpacePDF', 'space(id: $spaceId).pdf'),
  ],
};
