// Real Chromium for the pages the service serves to browsers (GraphiQL, the API reference), driven by playwright-core.
// The browser is Debian's `chromium` package, which .ci/run installs.
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium; fails, saying how to install it, when it is missing (a skipped browser test proves nothing). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install chromium\`.`);
  // Tests run as root, where Chromium's sandbox cannot start (playwright then passes --no-sandbox).
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false });
}

export interface OfflinePage {
  page: Page;
  /** Every URL outside the service that the page tried to load; each was refused. */
  external: string[];
}

/**
 * A page, in a fresh context (no storage left by another test), that may load from `serviceUrl`'s origin only: what it
 * needs elsewhere (a CDN, say) fails and is recorded, so an empty `external` proves the page works offline.
 */
export async function offlinePage(browser: Browser, serviceUrl: string): Promise<OfflinePage> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const { origin } = new URL(serviceUrl);
  const external: string[] = [];
  // On the context, so that the requests of the page's workers are caught too.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    external.push(url);
    return route.abort('blockedbyclient');
  });
  // WebSockets bypass route(); the service serves none, so every one is external.
  await context.routeWebSocket(/.*/, (webSocket) => {
    external.push(webSocket.url());
    return webSocket.close();
  });
  return { page: await context.newPage(), external };
}
