import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { api, Permission } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHAN_GRACE_MS } from '../src/infra/files/file.service.ts';
import { FileMissingError } from '../src/infra/files/file-store.ts';
import { parseFileStoreUrl, type S3Location } from '../src/infra/files/file-store-url.ts';
import { S3FileStore } from '../src/infra/files/s3-file-store.ts';
import { openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { PNG, uploadFile } from './support/files.ts';
import { expectOk, orgHelpers } from './support/org.ts';

const BUCKET = 'uiot-files';
/** s3rver's built-in account. */
const KEY = 'S3RVER';

interface S3Server {
  port: number;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server on a free loopback port (s3rver, from npm), with one bucket. When it cannot
 * be started here, the suite is skipped, saying why.
 */
async function startS3Server(): Promise<S3Server> {
  const { default: S3rver } = await import('s3rver');
  const directory = mkdtempSync(path.join(tmpdir(), 'uiot-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  return {
    port,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const s3 = await startS3Server().catch((error: unknown) => {
  console.warn(
    `S3-compatible store tests skipped: s3rver could not start here (${(error as Error).message})`,
  );
  return null;
});

function locationOf(url: string): S3Location {
  const read = parseFileStoreUrl(url);
  if (!read.ok) throw new Error(read.problem);
  return read.location;
}

const storeUrl = (prefix = 'console', key = KEY, secret = KEY) =>
  `s3+http://${key}:${secret}@127.0.0.1:${s3?.port}/${BUCKET}/${prefix}?region=us-east-1&forcePathStyle=true`;

describe.skipIf(!s3)('S3-compatible file store (s3rver)', () => {
  afterAll(async () => {
    await s3?.close();
  });

  it('keeps, gives back and removes files under the key prefix of FILE_STORE_URL', async () => {
    const location = locationOf(storeUrl());
    const store = new S3FileStore(location);
    await store.check();
    const key = crypto.randomUUID();
    await store.put(key, PNG, 'image/png');
    expect(await store.get(key)).toEqual(PNG);

    const raw = new S3Client({
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: true,
      credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    });
    const object = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: `console/${key}` }));
    expect(object.ContentType).toBe('image/png');
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(PNG);

    await store.remove(key);
    await expect(store.get(key)).rejects.toBeInstanceOf(FileMissingError);
    // Removing what is gone is no error.
    await store.remove(key);
  });

  it('fails its start-up check with a reason that never holds the secret', async () => {
    const wrong = new S3FileStore(locationOf(storeUrl('console', 'UNKNOWNKEY', 'wrong-secret-value')));
    const reason = await wrong.check().then(
      () => 'accepted',
      (error: Error) => error.message,
    );
    expect(reason).toMatch(/^cannot reach the bucket uiot-files: .*HTTP 403/);
    expect(reason).not.toContain('wrong-secret-value');
    expect(wrong.description).toBe(`object store http://127.0.0.1:${s3?.port}/${BUCKET}/console/`);
    expect(wrong.description).not.toContain('UNKNOWNKEY');
    const missing = new S3FileStore(locationOf(storeUrl().replace(BUCKET, 'no-such-bucket')));
    await expect(missing.check()).rejects.toThrow(/cannot reach the bucket no-such-bucket/);
  });

  describe.each(databases)('behind the API ($kind)', (kind) => {
    let t: TestApp;
    const { admin, post } = orgHelpers(() => t);

    beforeAll(async () => {
      t = await openTestApp(kind, {
        services: { fileStore: new S3FileStore(locationOf(storeUrl(`api-${kind.kind}`))) },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('uploads, attaches, downloads with the permission, and sweeps through the object store', async () => {
      const store = t.services.files.store;
      const kept = await uploadFile(t, await admin(), 'signature', PNG);
      const orphan = await uploadFile(t, await admin(), 'signature', PNG);
      const created = await post(api.staff.saveStaffEx, {
        name: uniqueName('S3'),
        password: 'Tr0ub4dor&Zq',
        staffType: 1,
        signatureFileId: kept,
      });
      expectOk(created);

      const reader = await t.createStaff({ permissions: [Permission.StaffRead] });
      const download = await t.app.inject({
        url: urlOf(api.staff.getSignatureById),
        query: { id: created.body.data.id },
        headers: { authorization: `Bearer ${await t.signIn(reader.name, reader.password)}` },
      });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload).toEqual(PNG);
      expect(download.headers['content-disposition']).toMatch(/^attachment;/);

      await t.services.files.sweep(new Date(Date.now() + ORPHAN_GRACE_MS + 60_000));
      await expect(store.get(orphan)).rejects.toBeInstanceOf(FileMissingError);
      expect(await store.get(kept)).toEqual(PNG);
    });
  });
});
