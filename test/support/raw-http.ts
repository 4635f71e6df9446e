// Requests sent with node's own http client, for what fetch hides: a Content-Length announced but not (yet) sent, a
// chunked body, and a server that answers and closes while the body is still being written. The answer counts once it
// is read whole; a reset or broken pipe after that (the server closing on a client still sending) is expected.
import http, { type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's bytes as they came (compressed when the answer is). */
  bytes: Buffer;
  text: string;
  body: any;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /** Written in order (one write each, the writes chunked when no Content-Length is given), then the request ends. */
  chunks?: Buffer[];
  /** Send no body at all, only the headers (with their Content-Length), and wait for the answer. */
  withhold?: boolean;
}

export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        answered = true;
        const bytes = Buffer.concat(parts);
        const text = bytes.toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: the text is the body.
        }
        resolve({ status: res.statusCode!, headers: res.headers, bytes, text, body });
        req.destroy();
      });
      res.on('error', (error) => !answered && reject(error));
    });
    req.on('error', (error) => !answered && reject(error));
    if (request.withhold) {
      req.flushHeaders();
      return;
    }
    for (const chunk of request.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** The body as one JSON text of exactly `bytes` bytes: `value`, padded with spaces (JSON allows them after it). */
export function jsonOfSize(value: unknown, bytes: number): Buffer {
  const text = JSON.stringify(value);
  const padding = bytes - Buffer.byteLength(text);
  if (padding < 0) throw new Error(`the JSON is already ${Buffer.byteLength(text)} bytes, more than ${bytes}`);
  return Buffer.from(text + ' '.repeat(padding));
}
