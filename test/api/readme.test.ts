// README.md's table of endpoints is the route table's: it must match the code.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { readmeFile, withRouteTable } from '../../scripts/readme-routes.js';

it('README.md lists the endpoints that exist (run npm run readme:routes after changing routes)', () => {
  const readme = readFileSync(readmeFile, 'utf8');
  expect(readme).toBe(withRouteTable(readme));
});
