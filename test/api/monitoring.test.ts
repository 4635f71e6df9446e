// Liveness, readiness and Prometheus metrics.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../src/files/index.js';
import { file, publish } from '../revisions/content.js';
import { type Person, startTestApp, useApi } from '../support/app.js';
import { buildOrganization, buildSpace, buildUser } from '../support/factories.js';

const { t } = useApi();
let alice: Person;
let acme: string;

beforeAll(async () => {
  alice = await buildUser(t.prisma, { displayName: 'Alice' });
  acme = (await buildOrganization(t.prisma, { title: 'Acme', owner: alice })).organization.id;
});

describe('health', () => {
  it('is live, and ready while the database answers', async () => {
    expect(await t.request('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await t.request('GET', '/health/ready')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
  });

  it('is not ready, with 503 in the error shape, when the database does not answer', async () => {
    const down = await startTestApp({ databaseUrl: 'postgresql://nobody@127.0.0.1:1/nothing' });
    try {
      expect((await down.request('GET', '/health/live')).status).toBe(200);
      const ready = await down.request('GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ error: { code: 503, message: 'The database does not answer.' } });
    } finally {
      await down.close();
    }
  });
});

describe('stopping', () => {
  it('keeps serving, not ready, for SHUTDOWN_DRAIN_SECONDS, then refuses connections', async () => {
    const draining = await startTestApp({ env: { SHUTDOWN_DRAIN_SECONDS: '2' } });
    try {
      const stopped = draining.stop();
      const ready = await draining.request('GET', '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.headers.get('connection')).toBe('close');
      expect((await draining.request('GET', '/health/live')).status).toBe(200);
      await stopped;
      await expect(draining.request('GET', '/health/live')).rejects.toThrow();
    } finally {
      await draining.close();
    }
  });
});

describe('stopping with a download under way', () => {
  it('closes the connection once the response ends, not after the keep-alive timeout', async () => {
    const serving = await startTestApp();
    try {
      const { organization, owner } = await buildOrganization(serving.prisma);
      const space = await buildSpace(serving.prisma, { organizationId: organization.id });
      const bytes = Buffer.alloc(8 * 1024 * 1024, 7);
      await publish(serving.prisma, space.id, { files: [file('big', 'big.bin', await storeFile(serving.app.services, bytes, 'big.bin'))] });
      const link = (await serving.request('GET', `/v1/spaces/${space.id}/content/files`, { token: owner.token })).body.items[0].downloadURL;
      // A client that keeps its connections (as a load balancer does), reading the body only once the stop began.
      const agent = new http.Agent({ keepAlive: true });
      const response = await new Promise<http.IncomingMessage>((resolve) => http.get(link, { agent }, resolve));
      const stopped = serving.stop();
      let received = 0;
      for await (const chunk of response) received += (chunk as Buffer).byteLength;
      expect(received).toBe(bytes.byteLength);
      await stopped;
      agent.destroy();
    } finally {
      await serving.close();
    }
  }, 20_000);
});

describe('metrics', () => {
  it('counts requests by route template and status, with the pool and the process', async () => {
    await t.request('GET', `/v1/orgs/${acme}`, { token: alice.token });
    await t.request('GET', `/v1/orgs/${acme}`, { token: alice.token });
    await t.request('GET', '/v1/orgs/AAAAAAAAAAAAAAAAAAAA', { token: alice.token });
    await t.request('GET', '/v1/nowhere', { token: alice.token });
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toContain('http_requests_total{method="GET",route="/v1/orgs/:organizationId",status="200"} 2');
    expect(metrics.text).toContain('http_requests_total{method="GET",route="/v1/orgs/:organizationId",status="404"} 1');
    expect(metrics.text).toContain('http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(metrics.text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/v1\/orgs\/:organizationId",status="200"\} \d+/,
    );
    expect(metrics.text).toMatch(/db_pool_connections\{state="open"\} [1-9]/);
    expect(metrics.text).toMatch(/db_statements_total [1-9]/);
    expect(metrics.text).toContain('process_resident_memory_bytes');
  });
});
