// A website for import tests: node:http on 127.0.0.1, serving fixed answers by path and recording every request, so
// that a test can tell which pages an import read and which it left alone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status?: number;
  /** Default: text/html; charset=utf-8. */
  type?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Answered once this settles: a page the test holds back (the request is recorded as it arrives). */
  after?: Promise<unknown>;
}

export interface Website {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Paths requested, with their query, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `pages(origin)` (answers by path, query ignored; 404 for any other path). */
export async function serveWebsite(pages: (origin: string) => Record<string, Answer>): Promise<Website> {
  const requests: string[] = [];
  let answers: Record<string, Answer> = {};
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const answer = answers[new URL(req.url ?? '/', 'http://site').pathname];
    if (!answer) return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    const reply = () => {
      res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'text/html; charset=utf-8', ...answer.headers });
      res.end(answer.body ?? '');
    };
    if (answer.after) void answer.after.then(reply);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  answers = pages(origin);
  return {
    origin,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An HTML page with a site's chrome (logo, navigation, footer) around `main`. */
export function page(title: string, main: string, nav: string[] = []): Answer {
  const links = nav.map((href) => `<li><a href="${href}">Nav ${href}</a></li>`).join('');
  return {
    body: `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>${title} | Acme Docs</title></head>
  <body>
    <header><a href="/docs/" class="logo">Acme Docs logo</a></header>
    <nav><ul>${links}</ul></nav>
    <main><article>${main}</article></main>
    <footer><p>Copyright Acme footer text.</p></footer>
  </body>
</html>`,
  };
}
