import { describe, expect, it } from 'vitest';
import { expectMatchesDocument, gitbookClient, operationExists, responseSchemaExists } from './openapi.js';

const collection = {
  object: 'collection',
  id: 'col_1',
  title: 'Handbook',
  organization: 'org_1',
  urls: { location: 'http://127.0.0.1:8080/v1/collections/col_1', app: 'http://127.0.0.1:8080/collections/col_1' },
  defaultLevel: 'inherit',
  permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
};

describe('expectMatchesDocument', () => {
  it('accepts a minimal valid Collection (0.202)', () => {
    expect(() => expectMatchesDocument('0202', 'GET', '/collections/{collectionId}', 200, collection)).not.toThrow();
  });

  it('tolerates a /v1 prefix and lower-case methods', () => {
    expect(() => expectMatchesDocument('0202', 'get', '/v1/collections/{collectionId}', 200, collection)).not.toThrow();
  });

  it('rejects a Collection without permissions and names the property', () => {
    const { permissions: _omitted, ...body } = collection;
    expect(() => expectMatchesDocument('0202', 'GET', '/collections/{collectionId}', 200, body)).toThrow(/permissions/);
  });

  it('rejects an unknown defaultLevel, pointing at the field and value', () => {
    const check = () => expectMatchesDocument('0202', 'GET', '/collections/{collectionId}', 200, { ...collection, defaultLevel: 'bogus' });
    expect(check).toThrow(/\/defaultLevel/);
    expect(check).toThrow(/"bogus"/);
  });

  it('checks formats (uri) and leaves unknown spec formats (emoji) permissive', () => {
    expect(() =>
      expectMatchesDocument('0202', 'GET', '/collections/{collectionId}', 200, {
        ...collection,
        urls: { ...collection.urls, app: 'not a uri' },
      }),
    ).toThrow(/\/urls\/app: must match format "uri"/);
  });

  it('accepts the error shape for a named error response ($ref to components/responses)', () => {
    expect(() => expectMatchesDocument('0202', 'GET', '/orgs/{organizationId}', 404, { error: { code: 404, message: 'x' } })).not.toThrow();
    expect(() => expectMatchesDocument('0202', 'GET', '/orgs/{organizationId}', 404, { error: { code: 400, message: 'x' } })).toThrow(
      /\/error\/code/,
    );
    expect(() => expectMatchesDocument('0202', 'GET', '/orgs/{organizationId}', 404, { message: 'x' })).toThrow(/error/);
  });

  it('falls back to the `default` response when a status is not declared (0.91)', () => {
    expect(() =>
      expectMatchesDocument('0091', 'GET', '/spaces/{spaceId}/custom-fields', 500, { error: { code: 500, message: 'boom' } }),
    ).not.toThrow();
  });

  it('honours OpenAPI 3.0 nullable in the 0.130 spec', () => {
    // 0.130's guest level is `{ type: 'string', nullable: true, enum: [null] }`: null only passes once nullable is honoured.
    expect(() =>
      expectMatchesDocument('0130', 'GET', '/collections/{collectionId}', 200, { ...collection, defaultLevel: null }),
    ).not.toThrow();
  });

  it('compiles 0.130 schemas that put nullable next to a $ref (OrganizationBilling.endDate)', () => {
    // Plain Ajv refuses this schema ('"nullable" cannot be used without "type"'); the 3.0 rewrite makes it an anyOf.
    expect(() => expectMatchesDocument('0130', 'GET', '/orgs/{organizationId}', 200, {})).toThrow(/must have required property 'id'/);
  });

  it('expects no body for a response without content', () => {
    expect(() => expectMatchesDocument('0202', 'DELETE', '/collections/{collectionId}', 205, undefined)).not.toThrow();
    expect(() => expectMatchesDocument('0202', 'DELETE', '/collections/{collectionId}', 205, { a: 1 })).toThrow(/no body/);
  });

  it('fails clearly for an operation or status the spec lacks', () => {
    expect(() => expectMatchesDocument('0202', 'POST', '/spaces/{spaceId}/transfer', 200, {})).toThrow(/no path/);
    expect(() => expectMatchesDocument('0202', 'GET', '/collections/{collectionId}', 418, {})).toThrow(/declares no response 418/);
  });
});

describe('responseSchemaExists', () => {
  it('knows transferSpace is in 0.167 but not 0.202', () => {
    expect(responseSchemaExists('0167', 'POST', '/spaces/{spaceId}/transfer', 200)).toBe(true);
    expect(responseSchemaExists('0202', 'POST', '/spaces/{spaceId}/transfer', 200)).toBe(false);
    expect(operationExists('0167', 'POST', '/spaces/{spaceId}/transfer')).toBe(true);
    expect(operationExists('0202', 'POST', '/spaces/{spaceId}/transfer')).toBe(false);
  });

  it('is false for a status without a JSON body', () => {
    expect(responseSchemaExists('0202', 'DELETE', '/collections/{collectionId}', 205)).toBe(false);
  });
});

describe('gitbookClient', () => {
  it('builds the official client of each version', () => {
    for (const version of ['0202', '0181', '0167', '0143', '0130', '0091'] as const) {
      const client = gitbookClient(version, 'http://127.0.0.1:1', 'token');
      expect(client.endpoint).toBe('http://127.0.0.1:1');
      expect(typeof client.collections.getCollectionById).toBe('function');
    }
    expect(typeof gitbookClient('0167', 'http://127.0.0.1:1', 't').spaces.transferSpace).toBe('function');
  });
});
