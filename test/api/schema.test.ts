// schema.graphql is the printed schema: it must match the code.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { printedSchema } from '../../src/schema.js';

it('schema.graphql is current (run npm run schema:print after changing types)', () => {
  expect(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8')).toBe(printedSchema());
});
