// REST endpoints of custom fields and of a space's values of them, and the REST shape of a custom field. They exist
// only in GitBook's published spec 0.91.0, which the routes follow.
import { type RestModule, route } from '../../rest/route.js';

const field = '/v1/orgs/:organizationId/custom-fields/:fieldName';
const fieldKey = 'organizationId: $organizationId, name: $fieldName';
const spec = '0091';

export const customFieldRest: RestModule = {
  fragments: {
    CustomField: 'id name title description placeholder type options createdAt updatedAt urls permissions',
  },
  routes: [
    route('GET /v1/spaces/:spaceId/custom-fields', 'getSpaceCustomFields', 'space(id: $spaceId).customFields', { spec }),
    route(
      'PATCH /v1/spaces/:spaceId/custom-fields',
      'updateSpaceCustomFields',
      'updateSpaceCustomFields(spaceId: $spaceId, input: $body)',
      {
        status: 204,
        spec,
      },
    ),
    route('GET /v1/orgs/:organizationId/custom-fields', 'listOrganizationCustomFields', 'organization(id: $organizationId).customFields', {
      spec,
    }),
    route(
      'POST /v1/orgs/:organizationId/custom-fields',
      'createOrganizationCustomField',
      'createCustomField(organizationId: $organizationId, input: $body)',
      { status: 201, spec },
    ),
    route(`GET ${field}`, 'getOrganizationCustomFieldByName', 'organization(id: $organizationId).customField(name: $fieldName)', { spec }),
    route(`PATCH ${field}`, 'updateOrganizationCustomField', `updateCustomField(${fieldKey}, input: $body)`, { spec }),
    route(`DELETE ${field}`, 'deleteOrganizationCustomField', `deleteCustomField(${fieldKey})`, { status: 204, spec }),
  ],
};
