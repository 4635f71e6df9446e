// A site's adaptive schema: GET (404 until one is set) and PUT, which accepts only documents of the published spec's
// shape that compile as JSON Schema draft-07 (ajv, strict), with ajv's message otherwise; who may read and set it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteAdaptiveJSONSchema } from '../../node_modules/gitbook-api-0202/dist/client.js';
import { newId } from '../../src/kernel/ids.js';
import { useApi } from '../support/app.js';
import { expectMatchesSpec, gitbookClient } from '../support/openapi.js';

const { t, world } = useApi({ world: true });
let acme: string;
beforeAll(() => {
  acme = world.organizationId;
});

const SPEC_PATH = '/orgs/{organizationId}/sites/{siteId}/adaptive-schema';
const schemaPath = (siteId: string, org = acme) => `/v1/orgs/${org}/sites/${siteId}/adaptive-schema`;
const put = (token: string | null, siteId: string, body: unknown, org = acme) => t.request('PUT', schemaPath(siteId, org), { token, body });

const newSite = async (organizationId = acme) =>
  (await t.prisma.site.create({ data: { id: newId(), organizationId, title: 'Adaptive' } })).id;

/** Every kind of claim the published spec allows. */
const CLAIMS = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'Whether the visitor joined the beta.' },
    plan: { type: 'string', enum: ['free', 'pro', 'enterprise'], description: 'The visitor’s plan.' },
    company: { type: 'string', description: 'The visitor’s company.' },
    seats: { type: 'number', description: 'Seats in the visitor’s subscription.' },
    products: { type: 'array', description: 'Products the visitor uses.', items: { type: 'string', description: 'A product.' } },
    account: {
      type: 'object',
      description: 'The visitor’s account.',
      properties: { admin: { type: 'boolean', description: 'Whether the visitor administers the account.' } },
      additionalProperties: false,
    },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { language: { type: 'string', description: 'Preferred language.' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe('GET and PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', () => {
  it('is not found until set; set through the official client, read back as set, matching the spec', async () => {
    const siteId = await newSite();
    const missing = await t.request('GET', schemaPath(siteId), { token: world.reader.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('No visitor attributes schema found for the site.');
    expectMatchesSpec('0202', 'get', SPEC_PATH, 404, missing.body);

    const client = gitbookClient('0202', t.url, world.creator.token);
    const { data, status } = await client.orgs.updateSiteAdaptiveSchema(acme, siteId, { jsonSchema: CLAIMS as SiteAdaptiveJSONSchema });
    expect(status).toBe(200);
    expectMatchesSpec('0202', 'put', SPEC_PATH, 200, data);
    expect(data).toEqual({ object: 'site-adaptive-schema', jsonSchema: CLAIMS, updatedAt: t.clock.now().toISOString() });

    t.clock.advanceMs(60_000);
    const read = await gitbookClient('0202', t.url, world.reader.token).orgs.getSiteAdaptiveSchema(acme, siteId);
    expectMatchesSpec('0202', 'get', SPEC_PATH, 200, read.data);
    expect(read.data).toEqual(data);

    const smaller = { type: 'object', properties: {}, additionalProperties: false };
    const replaced = await put(world.creator.token, siteId, { jsonSchema: smaller });
    expect(replaced.body).toEqual({ object: 'site-adaptive-schema', jsonSchema: smaller, updatedAt: t.clock.now().toISOString() });
  });

  it('refuses a document outside the published shape, or that ajv will not compile as draft-07, with ajv’s message', async () => {
    const siteId = await newSite();
    const claim = (value: unknown) => ({ type: 'object', properties: { claim: value }, additionalProperties: false });
    const cases: [unknown, string][] = [
      [claim({ type: 'boolean' }), `/properties/claim must have required property 'description'`],
      [claim({ type: 'string', format: 'email', description: 'E-mail.' }), '/properties/claim must not have the property "format"'],
      [
        claim({ type: 'integer', description: 'Count.' }),
        '/properties/claim/type must be one of "boolean", "string", "number", "array", "object"',
      ],
      [claim({ type: 'string', enum: [1, 2], description: 'Numbers.' }), '/properties/claim/enum/0 must be string'],
      [
        claim({ type: 'array', description: 'Nested.', items: { type: 'object', description: 'No.' } }),
        '/properties/claim/items/type must be one of "boolean", "string", "number"',
      ],
      [
        claim({ type: 'object', description: 'Open.', properties: {} }),
        `/properties/claim must have required property 'additionalProperties'`,
      ],
      [{ type: 'object', properties: {}, additionalProperties: true }, '/additionalProperties must be false'],
      [{ type: 'object', properties: {} }, `must have required property 'additionalProperties'`],
      [{ ...CLAIMS, title: 'Claims' }, 'must not have the property "title"'],
      [
        { ...CLAIMS, $schema: 'https://json-schema.org/draft/2020-12/schema' },
        '/$schema must be "http://json-schema.org/draft-07/schema#"',
      ],
      ['{"type":"object"}', 'must be object'],
      // The published shape allows these; draft-07 under ajv's strict mode does not.
      [
        claim({ type: 'string', enum: [], description: 'Nothing.' }),
        'schema is invalid: data/properties/claim/enum must NOT have fewer than 1 items',
      ],
      [
        {
          type: 'object',
          properties: {
            unsigned: {
              type: 'object',
              description: 'Unsigned claims of the site visitor.',
              properties: {},
              additionalProperties: false,
              x: 1,
            },
          },
          additionalProperties: false,
        },
        'strict mode: unknown keyword: "x"',
      ],
    ];
    for (const [jsonSchema, message] of cases) {
      const res = await put(world.admin.token, siteId, { jsonSchema });
      expect(res.status, JSON.stringify(jsonSchema)).toBe(400);
      expect(res.body.error.message).toBe(`Invalid "jsonSchema": ${message}.`);
    }
    const missing = await put(world.admin.token, siteId, {});
    expect(missing.body.error.message).toBe('Invalid "jsonSchema": required.');
    expect((await t.prisma.site.findUniqueOrThrow({ where: { id: siteId } })).adaptiveSchema).toBeNull();
  });

  it('is read by members with a role and set by creators; 404 for guests, outsiders and other organizations’ sites', async () => {
    const siteId = await newSite();
    const body = { jsonSchema: CLAIMS };
    expect((await put(world.editor.token, siteId, body)).status).toBe(403);
    expect((await put(world.reader.token, siteId, body)).status).toBe(403);
    expect((await put(world.guest.token, siteId, body)).status).toBe(404);
    expect((await put(world.outsider.token, siteId, body)).status).toBe(404);
    expect((await put(null, siteId, body)).status).toBe(401);
    expect((await put(world.creator.token, siteId, body)).status).toBe(200);

    const get = (token: string | null, id = siteId, org = acme) => t.request('GET', schemaPath(id, org), { token });
    expect((await get(world.reader.token)).status).toBe(200);
    expect((await get(world.guest.token)).status).toBe(404);
    expect((await get(world.outsider.token)).status).toBe(404);
    expect((await get(null)).status).toBe(401);
    const elsewhere = await newSite(world.secondOrganizationId);
    await t.prisma.site.update({ where: { id: elsewhere }, data: { adaptiveSchema: CLAIMS, adaptiveSchemaUpdatedAt: t.clock.now() } });
    expect((await get(world.admin.token, elsewhere)).status).toBe(404);
    expect((await put(world.admin.token, elsewhere, body)).status).toBe(404);
    expect((await get(world.admin.token, elsewhere, world.secondOrganizationId)).status).toBe(200);
  });
});
