// The pages the service serves to browsers, in real Chromium and offline: they may load nothing from elsewhere.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Person, useApi } from '../support/app.js';
import { launchChromium, offlinePage } from '../support/browser.js';
import { buildOrganization, buildUser } from '../support/factories.js';

const { t } = useApi();
let browser: Browser;
let ada: Person;

beforeAll(async () => {
  ada = await buildUser(t.prisma, { displayName: 'Ada' });
  await buildOrganization(t.prisma, { title: 'Ada’s handbook', owner: ada });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The text a Monaco editor shows, its lines run together (it renders spaces as no-break spaces). */
async function shown(editor: Locator): Promise<string> {
  return ((await editor.locator('.view-lines').textContent()) ?? '').replaceAll('\u00a0', ' ');
}

/**
 * Everything the page's origin keeps in localStorage, as one text. The origin also serves tenants' integration
 * scripts, so a token kept there would be theirs to read.
 */
const storedLocally = (page: Page) => page.evaluate(() => JSON.stringify({ ...localStorage }));

/** Rendering and queries take a while when the whole suite runs in parallel. */
const slowly = { timeout: 15_000 };

describe('GraphiQL at /graphql', () => {
  it('runs a query with a pasted token and shows the schema, offline', async () => {
    const { page, external } = await offlinePage(browser, t.url);
    await page.goto(`${t.url}/graphql`);
    expect(await page.title()).toBe('Docs platform management API');
    const queryEditor = page.locator('.graphiql-query-editor .monaco-editor');
    // The editor tools hold the variables editor too, hidden behind the headers one.
    const headersEditor = page.getByRole('region', { name: 'Headers' }).locator('.graphiql-editor:not(.hidden) .monaco-editor');
    const result = page.getByRole('region', { name: 'Result Window' });
    const docs = page.locator('.graphiql-doc-explorer');

    await expect.poll(() => shown(queryEditor), slowly).toContain('viewer { displayName email }');
    await page.getByRole('button', { name: 'Headers' }).click();
    await expect.poll(() => shown(headersEditor), slowly).toBe('{"Authorization": "Bearer "}');

    // The token goes where a user pastes it: after "Bearer ".
    await headersEditor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.insertText(ada.token);
    expect(await shown(headersEditor)).toBe(`{"Authorization": "Bearer ${ada.token}"}`);

    // The default query reads the viewer and their organizations: what a new user runs first. (Replacing it by typing
    // races the editor's own closing of braces, so the test runs it as it stands.)
    expect(await shown(queryEditor)).toBe('{  viewer { displayName email }  organizations { items { id title } }}');
    await page.getByRole('button', { name: 'Execute query (Ctrl-Enter)' }).click();
    await expect.poll(() => shown(result), slowly).toContain(`"email": "${ada.email}"`);
    expect(await shown(result)).toContain('"title": "Ada’s handbook"');
    // GraphiQL keeps the query and its tabs, not the headers.
    await expect.poll(() => storedLocally(page), slowly).toContain('viewer { displayName email }');
    expect(await storedLocally(page)).not.toContain(ada.token);

    // GraphiQL fetched the schema on load, without a token, and was refused: with the token in, the user re-fetches it.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.getByRole('button', { name: 'Re-fetch GraphQL schema (Shift-Ctrl-R)' }).click();
    await docs.getByText('User', { exact: true }).click();
    await expect.poll(() => docs.textContent(), slowly).toContain('displayName: String!');

    expect(external).toEqual([]);
  });
});

describe('the API reference at /docs', () => {
  it('renders /openapi.json and sends a real request with the token given to Authorize, offline', async () => {
    const { page, external } = await offlinePage(browser, t.url);
    await page.goto(`${t.url}/docs`);
    const operation = page.locator('#operations-user-getAuthenticatedUser');
    await expect.poll(() => operation.count(), slowly).toBe(1);
    // Swagger UI renders a large document's operations as they scroll into view: count those it read, not the DOM's.
    const known = await page.evaluate(
      () => (window as unknown as { ui: { specSelectors: { operations(): { size: number } } } }).ui.specSelectors.operations().size,
    );
    expect(known).toBe(await (await fetch(`${t.url}/openapi.json`)).json().then(countOperations));
    expect(await page.locator('.opblock').count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').fill(ada.token);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done').click();

    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = operation.locator('.live-responses-table .response-col_description pre').first();
    await expect.poll(() => response.textContent(), slowly).toContain(`"email": "${ada.email}"`);
    // Authorize keeps the token in the page only.
    expect(await storedLocally(page)).not.toContain(ada.token);
    expect(external).toEqual([]);
  });
});

/** How many operations an OpenAPI document has: one block each on the page. */
function countOperations(document: { paths: Record<string, object> }): number {
  return Object.values(document.paths).reduce((sum, operations) => sum + Object.keys(operations).length, 0);
}
