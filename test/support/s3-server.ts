// An S3-compatible server for the S3 backend's tests: s3rver (npm), an S3 implementation in Node that keeps objects
// in a directory and checks AWS signatures (V4, presigned URLs included), served over real HTTP on a loopback port.
// What it does not prove: the behaviour of AWS S3 itself or of MinIO, Ceph or R2 (their consistency, their checksum
// and multipart rules, TLS, IAM policies); only that the backend speaks the S3 protocol as the SDK sends it.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface S3Server {
  /** The service's settings to use it (FILES_STORE=s3 and the S3_* variables). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts a server with one empty bucket, `files`, whose objects the service keeps under `prefix`. */
export async function startS3Server(prefix = 'docs/'): Promise<S3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'files', configs: [] }] });
  const { port } = (await server.run()) as AddressInfo;
  return {
    env: {
      FILES_STORE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'files',
      S3_PREFIX: prefix,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      // Clients' keep-alive connections (a store's SDK client is never closed) would hold close() open.
      (server as unknown as { httpServer: Server }).httpServer.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
