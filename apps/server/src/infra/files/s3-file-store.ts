import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { FileMissingError, type FileStore } from './file-store.ts';
import { describeS3Location, type S3Location } from './file-store-url.ts';

/** How long one request to the object store may take before it fails. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Files in an S3-compatible object store (FILE_STORE_URL): AWS S3, MinIO, Ceph, Garage and the like, shared
 * by every instance of the server. Checksums are sent and checked only where the operation requires them:
 * several S3-compatible servers refuse the SDK's newer default ones.
 */
export class S3FileStore implements FileStore {
  readonly description: string;
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.description = `object store ${describeS3Location(location)}`;
    // The SDK is pinned to a version that supports Node 20; its notice about later versions is not ours.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    this.client = new S3Client({
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { requestTimeout: REQUEST_TIMEOUT_MS, connectionTimeout: REQUEST_TIMEOUT_MS },
      maxAttempts: 3,
    });
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }));
    } catch (error) {
      throw new Error(`cannot reach the bucket ${this.location.bucket}: ${reasonOf(error)}`);
    }
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.location.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
  }

  async get(key: string): Promise<Buffer> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }),
      );
      if (!answer.Body) throw new FileMissingError(key);
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (error instanceof NoSuchKey) throw new FileMissingError(key);
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }),
    );
  }

  private objectKey(key: string): string {
    return `${this.location.prefix}${key}`;
  }
}

/** What went wrong, without anything the SDK may have quoted from the request. */
function reasonOf(error: unknown): string {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number }; code?: string };
  const status = e.$metadata?.httpStatusCode;
  return [e.name ?? e.code ?? 'error', status ? `HTTP ${status}` : ''].filter(Boolean).join(', ');
}
