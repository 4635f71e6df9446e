// The S3 backend: bytes as objects `<S3_PREFIX><key>` of one bucket, through the AWS SDK, on AWS S3 or any
// S3-compatible store (MinIO, Ceph, R2: S3_ENDPOINT and, for most of them, S3_FORCE_PATH_STYLE). A PUT the store
// acknowledged is durable, so put returns then. The SDK is loaded by the first use of the store, not at start-up:
// an instance on the local backend never loads it.
import { PassThrough, type Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import contentDisposition from 'content-disposition';
import type { S3Settings } from '../config.js';
import type { FileStore, OpenedObject, StoredObject } from './store.js';

/** DeleteObjects takes at most this many keys. */
const DELETE_BATCH = 1000;

type Sdk = typeof import('@aws-sdk/client-s3');

const isMissing = (error: unknown) => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
};

export class S3FileStore implements FileStore {
  readonly kind = 's3';
  private connection?: Promise<{ sdk: Sdk; client: S3Client }>;

  constructor(private readonly settings: S3Settings) {}

  private connect() {
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle, checksums } = this.settings;
      // Several S3-compatible stores refuse the checksums the SDK sends by default: S3_CHECKSUMS=when_required (the
      // default) sends them only where the operation requires one.
      const checksumMode = checksums === 'when_supported' ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED';
      const client = new sdk.S3Client({
        ...(endpoint && { endpoint }),
        region,
        forcePathStyle,
        ...(accessKeyId && secretAccessKey && { credentials: { accessKeyId, secretAccessKey } }),
        requestChecksumCalculation: checksumMode,
        responseChecksumValidation: checksumMode,
      });
      return { sdk, client };
    });
    return this.connection;
  }

  private objectKey(key: string) {
    return `${this.settings.prefix}${key}`;
  }

  private async size(key: string): Promise<number | null> {
    const { sdk, client } = await this.connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    if ((await this.size(key)) !== null) return;
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: bytes, ContentLength: bytes.byteLength }),
    );
  }

  async putStream(key: string, stream: Readable, size: number): Promise<void> {
    if ((await this.size(key)) !== null) {
      stream.resume();
      return;
    }
    const { sdk, client } = await this.connect();
    // The SDK would wait for the rest of a body whose source failed: the upload is aborted instead, and fails with it.
    const upload = new AbortController();
    const failed = new Promise<never>((_resolve, reject) =>
      stream.once('error', (error) => {
        upload.abort();
        reject(error);
      }),
    );
    const command = new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: stream, ContentLength: size });
    await Promise.race([client.send(command, { abortSignal: upload.signal }), failed]);
  }

  async open(key: string): Promise<OpenedObject | null> {
    const size = await this.size(key);
    if (size === null) return null;
    return {
      size,
      stream: () => {
        const body = new PassThrough();
        this.connect()
          .then(({ sdk, client }) => client.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) })))
          .then((answer) => {
            const source = answer.Body as Readable;
            source.on('error', (error) => body.destroy(error));
            source.pipe(body);
          })
          .catch((error) => body.destroy(error));
        return body;
      },
    };
  }

  async remove(keys: readonly string[]): Promise<void> {
    const { sdk, client } = await this.connect();
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const answer = await client.send(
        new sdk.DeleteObjectsCommand({
          Bucket: this.settings.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.objectKey(key) })), Quiet: true },
        }),
      );
      const failed = (answer.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
      if (failed.length)
        throw new Error(`The object store kept ${failed.length} objects: ${failed[0].Code} ${failed[0].Message ?? ''}`.trim());
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    const { sdk, client } = await this.connect();
    let continuationToken: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: this.settings.prefix, ContinuationToken: continuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(this.settings.prefix.length), size: object.Size ?? 0, storedAt: object.LastModified ?? new Date(0) };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async presignedUrl(
    key: string,
    download: { name: string; contentType: string; inline: boolean; seconds: number },
  ): Promise<string | null> {
    if (!this.settings.presignedDownloads) return null;
    const [{ sdk, client }, { getSignedUrl }] = await Promise.all([this.connect(), import('@aws-sdk/s3-request-presigner')]);
    const command = new sdk.GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: this.objectKey(key),
      ResponseContentType: download.contentType,
      ResponseContentDisposition: contentDisposition(download.name, { type: download.inline ? 'inline' : 'attachment' }),
    });
    return getSignedUrl(client, command, { expiresIn: download.seconds });
  }
}
