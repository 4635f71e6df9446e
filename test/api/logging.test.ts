// Request log lines: one per request, with its request id, its route's outcome, and the actor (user and token ids).
import { Writable } from 'node:stream';
import pino from 'pino';
import { expect, it } from 'vitest';
import { useApi } from '../support/app.js';
import { buildOrganization } from '../support/factories.js';

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const { t } = useApi({ logger: pino({ level: 'info' }, sink) });

it('logs each request with its actor, for REST and GraphQL, and without one when the token is refused', async () => {
  const { owner } = await buildOrganization(t.prisma);
  await t.request('GET', '/v1/orgs', { token: owner.token, headers: { 'x-request-id': 'rest-1' } });
  await t.request('POST', '/graphql', {
    token: owner.token,
    headers: { 'x-request-id': 'graphql-1' },
    body: { query: '{ organizations { count } }' },
  });
  await t.request('GET', '/v1/orgs', { token: 'dpa_wrong', headers: { 'x-request-id': 'refused-1' } });
  const requestLine = (id: string) => lines.find((line) => line.requestId === id && line.msg === 'request');
  expect(requestLine('rest-1')).toMatchObject({
    method: 'GET',
    path: '/v1/orgs',
    status: 200,
    ip: '127.0.0.1',
    userId: owner.userId,
    tokenId: owner.tokenId,
  });
  expect(requestLine('graphql-1')).toMatchObject({
    method: 'POST',
    path: '/graphql',
    status: 200,
    userId: owner.userId,
    tokenId: owner.tokenId,
  });
  expect(requestLine('refused-1')).toMatchObject({ status: 401 });
  expect(requestLine('refused-1')).not.toHaveProperty('userId');
});
