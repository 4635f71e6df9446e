// A site's adaptive schema: the JSON Schema of the claims its visitors present (adaptive content shows or hides content
// by them). A schema is accepted in two steps: it must have the shape GitBook's published spec (0.202,
// SiteAdaptiveJSONSchema) allows, then it must compile as a JSON Schema draft-07 document under ajv's strict mode.
import type { Ajv as AjvType, ErrorObject, ValidateFunction } from 'ajv';
import { badRequest } from '../kernel/errors.js';

/** A site's adaptive schema as REST answers it. */
export interface AdaptiveSchemaView {
  jsonSchema: unknown;
  updatedAt: Date;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties: { type: true, description: true, ...properties },
  ...(required.length && { required }),
  additionalProperties: false,
});
const when = (type: string, then: object) => ({ if: { type: 'object', properties: { type: { const: type } } }, then });

/**
 * SiteAdaptiveJSONSchema of the published spec 0.202, transcribed. The spec writes a claim as a `oneOf` of closed
 * shapes; here each shape is chosen by the claim's `type` (if/then), which accepts exactly the same documents and lets
 * ajv's first error name the actual fault rather than a mismatch with every other branch. A claim is a boolean, a
 * string (with an optional list of allowed values), a number, an array of those, or an object of claims; every claim
 * has a description, and every object is closed.
 */
export const ADAPTIVE_SCHEMA_SHAPE = {
  $schema: DRAFT_07,
  definitions: {
    primitive: {
      type: 'object',
      required: ['type', 'description'],
      properties: { type: { enum: ['boolean', 'string', 'number'] }, description: { type: 'string' } },
      allOf: [
        when('boolean', closed({})),
        when('number', closed({})),
        when('string', closed({ enum: { type: 'array', items: { type: 'string' } } })),
      ],
    },
    claim: {
      type: 'object',
      required: ['type', 'description'],
      properties: { type: { enum: ['boolean', 'string', 'number', 'array', 'object'] }, description: { type: 'string' } },
      allOf: [
        when('boolean', { $ref: '#/definitions/primitive' }),
        when('number', { $ref: '#/definitions/primitive' }),
        when('string', { $ref: '#/definitions/primitive' }),
        when('array', closed({ items: { $ref: '#/definitions/primitive' } }, ['items'])),
        when('object', { $ref: '#/definitions/claims' }),
      ],
    },
    claims: closed(
      {
        properties: { type: 'object', additionalProperties: { $ref: '#/definitions/claim' } },
        additionalProperties: { const: false },
      },
      ['type', 'description', 'properties', 'additionalProperties'],
    ),
    unsigned: {
      type: 'object',
      required: ['type', 'description', 'properties', 'additionalProperties'],
      properties: {
        type: { const: 'object' },
        description: { const: UNSIGNED_DESCRIPTION },
        properties: { type: 'object', additionalProperties: { $ref: '#/definitions/claim' } },
        additionalProperties: { const: false },
      },
    },
  },
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  properties: {
    $schema: { const: DRAFT_07 },
    type: { const: 'object' },
    properties: {
      type: 'object',
      properties: { unsigned: { $ref: '#/definitions/unsigned' } },
      additionalProperties: { $ref: '#/definitions/claim' },
    },
    additionalProperties: { const: false },
  },
  additionalProperties: false,
} as const;

/**
 * The shape's validator, and a compiler of draft-07 documents (a fresh one per document would rebuild the meta-schema
 * each time; compiled documents are dropped): made by the first check, ajv loaded then rather than at start-up.
 */
let validators: Promise<{ matchesShape: ValidateFunction; draft07: AjvType }> | undefined;
const adaptiveValidators = () =>
  (validators ??= import('ajv').then(({ Ajv }) => ({
    matchesShape: new Ajv({ strict: true }).compile(ADAPTIVE_SCHEMA_SHAPE),
    draft07: new Ajv({ strict: true }),
  })));

/** ajv's message for the first fault ("/properties/plan/enum/0 must be string"), naming what it leaves unnamed. */
function describe(error: ErrorObject): string {
  const params = error.params as { additionalProperty?: string; allowedValue?: unknown; allowedValues?: unknown[] };
  const problem =
    error.keyword === 'additionalProperties'
      ? `must not have the property ${JSON.stringify(params.additionalProperty)}`
      : error.keyword === 'const'
        ? `must be ${JSON.stringify(params.allowedValue)}`
        : error.keyword === 'enum'
          ? `must be one of ${params.allowedValues!.map((value) => JSON.stringify(value)).join(', ')}`
          : (error.message ?? 'is invalid');
  return error.instancePath ? `${error.instancePath} ${problem}` : problem;
}

/** Refuses (400, ajv's message) a document that is not an adaptive schema. */
export async function checkAdaptiveSchema(jsonSchema: unknown): Promise<void> {
  const { matchesShape, draft07 } = await adaptiveValidators();
  if (!matchesShape(jsonSchema)) throw badRequest(`Invalid "jsonSchema": ${describe(matchesShape.errors![0])}.`);
  const document = jsonSchema as object;
  try {
    draft07.compile(document);
  } catch (error) {
    throw badRequest(`Invalid "jsonSchema": ${(error as Error).message}.`);
  } finally {
    draft07.removeSchema(document);
  }
}
