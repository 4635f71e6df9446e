// Request body limits, per operation and shared by /v1 and /graphql (rest/body.ts): a content batch takes up to its
// own limit through either; everything else REST's default. Past a limit the client reads a 413 in the error shape:
// a body announced larger is refused before it is read, and the connection closes once up to DISCARD_LIMIT more has
// been read and thrown away. Bodies are sent with node's http client (test/support/raw-http.ts) where fetch would hide
// what happens on the wire.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT, DISCARD_LIMIT } from '../../rest/body.js';
import { CONTENT_BATCH_BYTES, MAX_BASE64_BYTES } from '../../src/change-requests/content.js';
import { DOCUMENT_ALLOWANCE } from '../../src/graphql.js';
import { type Person, useApi } from '../support/app.js';
import { buildOrganization, buildUser } from '../support/factories.js';
import { jsonOfSize, type RawRequest, rawRequest } from '../support/raw-http.js';

const MiB = 1024 * 1024;
const { t } = useApi();
let alice: Person;
let acme: string;
let spaceId: string;

beforeAll(async () => {
  alice = await buildUser(t.prisma, { displayName: 'Alice' });
  acme = (await buildOrganization(t.prisma, { title: 'Acme', owner: alice })).organization.id;
  const space = await t.request('POST', `/v1/orgs/${acme}/spaces`, { token: alice.token, body: { title: 'Handbook' } });
  spaceId = space.body.id;
});

const send = (request: RawRequest) => rawRequest(t.url, request);
const json = (token: string | null = alice.token) => ({
  'content-type': 'application/json',
  ...(token && { authorization: `Bearer ${token}` }),
});
const tooLarge = (limit: string) => ({ error: { code: 413, message: `Request bodies are limited to ${limit} here.` } });

async function changeRequest(): Promise<number> {
  const created = await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: alice.token, body: { subject: 'Files' } });
  expect(created.status, created.text).toBe(201);
  return created.body.number;
}
const contentPath = (number: number) => `/v1/spaces/${spaceId}/change-requests/${number}/content`;

/** One insert_files of a file of `bytes` random bytes, inline in base64. */
const fileBatch = (bytes: number, name = 'data.bin') => ({
  changes: [
    {
      operation: 'insert_files',
      files: [{ name, contentType: 'application/octet-stream', base64: randomBytes(bytes).toString('base64') }],
    },
  ],
});

const UPDATE_CONTENT = `mutation ($spaceId: ID!, $id: ID!, $input: UpdateChangeRequestContentInput!) {
  updateChangeRequestContent(spaceId: $spaceId, id: $id, input: $input) { ... on ChangeRequest { id number } }
}`;
const graphqlBatch = (number: number, batch: unknown) => ({
  query: UPDATE_CONTENT,
  variables: { spaceId, id: String(number), input: batch },
});

/** The sizes of the change request's files, by name. */
async function fileSizes(number: number): Promise<Record<string, number>> {
  const files = await t.request('GET', `${contentPath(number)}/files`, { token: alice.token });
  return Object.fromEntries(files.body.items.map((file: { name: string; size: number }) => [file.name, file.size]));
}

describe('a content batch', () => {
  it('takes a file of 900 KiB inline, past the default limit, through REST', async () => {
    const number = await changeRequest();
    const res = await send({
      method: 'POST',
      path: contentPath(number),
      headers: json(),
      chunks: [Buffer.from(JSON.stringify(fileBatch(900 * 1024)))],
    });
    expect(res.status, res.text).toBe(200);
    expect(await fileSizes(number)).toEqual({ 'data.bin': 900 * 1024 });
  });

  it('takes the same batch through /graphql', async () => {
    const number = await changeRequest();
    const body = Buffer.from(JSON.stringify(graphqlBatch(number, fileBatch(900 * 1024))));
    expect(body.length).toBeGreaterThan(DEFAULT_BODY_LIMIT);
    const res = await send({ method: 'POST', path: '/graphql', headers: json(), chunks: [body] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.errors, res.text.slice(0, 2000)).toBeUndefined();
    expect(res.body.data.updateChangeRequestContent.number).toBe(number);
    expect(await fileSizes(number)).toEqual({ 'data.bin': 900 * 1024 });
  });

  it('takes a REST body of exactly its limit, and answers 413 one byte past it', async () => {
    const number = await changeRequest();
    const batch = fileBatch(MAX_BASE64_BYTES);
    const at = await send({ method: 'POST', path: contentPath(number), headers: json(), chunks: [jsonOfSize(batch, CONTENT_BATCH_BYTES)] });
    expect(at.status, at.text).toBe(200);
    expect(await fileSizes(number)).toEqual({ 'data.bin': MAX_BASE64_BYTES });
    const past = await send({
      method: 'POST',
      path: contentPath(number),
      headers: json(),
      chunks: [jsonOfSize(batch, CONTENT_BATCH_BYTES + 1)],
    });
    expect(past.status).toBe(413);
    expect(past.body).toEqual(tooLarge('16 MiB'));
  });

  it('takes a GraphQL body of its limit and the document allowance, and answers 413 one byte past it', async () => {
    const number = await changeRequest();
    const limit = CONTENT_BATCH_BYTES + DOCUMENT_ALLOWANCE;
    const request = graphqlBatch(number, fileBatch(MAX_BASE64_BYTES, 'graphql.bin'));
    const at = await send({ method: 'POST', path: '/graphql', headers: json(), chunks: [jsonOfSize(request, limit)] });
    expect(at.status, at.text).toBe(200);
    expect(at.body.errors).toBeUndefined();
    expect(await fileSizes(number)).toEqual({ 'graphql.bin': MAX_BASE64_BYTES });
    const past = await send({ method: 'POST', path: '/graphql', headers: json(), chunks: [jsonOfSize(request, limit + 1)] });
    expect(past.status).toBe(413);
    expect(past.body).toEqual(tooLarge(`${limit} bytes`));
  });

  it('still refuses a file past its own limit (1 MiB decoded), naming it, in a body well within the batch’s', async () => {
    const number = await changeRequest();
    const res = await send({
      method: 'POST',
      path: contentPath(number),
      headers: json(),
      chunks: [Buffer.from(JSON.stringify(fileBatch(MAX_BASE64_BYTES + 1)))],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: `Invalid "changes.0.files.0.base64": more than ${MAX_BASE64_BYTES} bytes.` } });
  });
});

describe('/graphql', () => {
  it('answers a 30 MB body with a 413 the client reads, before reading it, and closes the connection', async () => {
    const res = await send({ method: 'POST', path: '/graphql', headers: json(), chunks: [Buffer.alloc(30_000_000, ' ')] });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(`${CONTENT_BATCH_BYTES + DOCUMENT_ALLOWANCE} bytes`));
    expect(res.headers.connection).toBe('close');
  });

  it('holds a document to its fields’ limit: past the default, every root field must allow more', async () => {
    const number = await changeRequest();
    const batch = fileBatch(900 * 1024);
    const queries = [
      '{ viewer { id } }',
      // A batch beside a field of the default limit: the document gets the smaller.
      `mutation ($spaceId: ID!, $id: ID!, $input: UpdateChangeRequestContentInput!) {
        updateChangeRequestContent(spaceId: $spaceId, id: $id, input: $input) { __typename }
        updateChangeRequest(spaceId: $spaceId, id: $id, input: { subject: "Renamed" }) { id }
      }`,
      // Two operations: whichever runs, the document is held to both.
      `${UPDATE_CONTENT.replace('mutation', 'mutation Batch')} query Other { viewer { id } }`,
    ];
    for (const query of queries) {
      const request = {
        query,
        operationName: query.includes('Batch') ? 'Batch' : undefined,
        variables: { spaceId, id: String(number), input: batch },
      };
      const body = Buffer.from(JSON.stringify(request));
      const res = await send({ method: 'POST', path: '/graphql', headers: json(), chunks: [body] });
      expect(res.status, query).toBe(413);
      expect(res.body).toEqual(tooLarge('1 MiB'));
    }
    expect(await fileSizes(number)).toEqual({});
  });

  it('takes a chunked body within the limit, and ignores a GET’s body', async () => {
    const query = Buffer.from(JSON.stringify({ query: '{ viewer { id } }' }));
    const chunked = await send({ method: 'POST', path: '/graphql', headers: json(), chunks: [query.subarray(0, 10), query.subarray(10)] });
    expect(chunked.status, chunked.text).toBe(200);
    expect(chunked.body.data.viewer.id).toBe(alice.userId);
    const get = await send({
      method: 'GET',
      path: '/graphql?query=%7B%20viewer%20%7B%20id%20%7D%20%7D',
      headers: { ...json(), 'content-length': query.length },
      chunks: [query],
    });
    expect(get.status, get.text).toBe(200);
    expect(get.body.data.viewer.id).toBe(alice.userId);
  });

  it('reads past the default only for a valid token', async () => {
    const number = await changeRequest();
    const body = Buffer.from(JSON.stringify(graphqlBatch(number, fileBatch(900 * 1024))));
    for (const token of [null, 'dpa_nope']) {
      const res = await send({ method: 'POST', path: '/graphql', headers: json(token), chunks: [body] });
      expect(res.status).toBe(413);
      expect(res.body).toEqual(tooLarge('1 MiB'));
    }
    const small = await send({
      method: 'POST',
      path: '/graphql',
      headers: json(null),
      chunks: [Buffer.from('{"query":"{ viewer { id } }"}')],
    });
    expect(small.status).toBe(401);
  });
});

describe('past a limit', () => {
  it('answers a body announced past the limit at once, without waiting for it', async () => {
    for (const path of [`/v1/orgs/${acme}/collections`, '/graphql']) {
      const res = await send({ method: 'POST', path, headers: { ...json(), 'content-length': 20_000_000 }, withhold: true });
      expect(res.status, path).toBe(413);
      expect(res.body.error.code).toBe(413);
      expect(res.headers.connection).toBe('close');
    }
  });

  it('lets a client that sends the whole announced body (20 MB) read the 413', async () => {
    const res = await send({
      method: 'POST',
      path: `/v1/orgs/${acme}/collections`,
      headers: { ...json(), 'content-length': 20_000_000 },
      chunks: [Buffer.alloc(20_000_000, ' ')],
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge('1 MiB'));
  });

  it('answers a chunked body past the limit with a 413 the client reads, in the error shape', async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, ' '));
    chunks.unshift(Buffer.from('{"title": "Big"}'));
    for (const path of [`/v1/orgs/${acme}/collections`, '/graphql']) {
      const res = await send({ method: 'POST', path, headers: json(), chunks });
      expect(res.status, path).toBe(413);
      expect(res.body).toEqual(tooLarge('1 MiB'));
    }
    // The body within the limit: the same request, chunked, is read whole.
    const within = await send({ method: 'POST', path: `/v1/orgs/${acme}/collections`, headers: json(), chunks: chunks.slice(0, 10) });
    expect(within.status, within.text).toBe(201);
  });

  it('reads at most DISCARD_LIMIT past the limit, then closes on a client that keeps sending', async () => {
    const sent = await new Promise<{ status: number; written: number }>((resolve, reject) => {
      let status = 0;
      let written = 0;
      const req = http.request(`${t.url}/v1/orgs/${acme}/collections`, { method: 'POST', headers: json() });
      req.on('response', (res) => {
        status = res.statusCode!;
        res.resume();
      });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      const write = () => {
        while (written < 200 * MiB) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        reject(new Error('the server read 200 MiB'));
      };
      req.on('error', () => resolve({ status, written }));
      write();
    });
    expect(sent.status).toBe(413);
    // What the sockets' buffers hold on both sides comes on top of what the server read.
    expect(sent.written).toBeLessThan(DEFAULT_BODY_LIMIT + DISCARD_LIMIT + 32 * MiB);
  });
});
