import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileMissingError } from './file-store.ts';
import { LocalFileStore } from './local-file-store.ts';

describe('LocalFileStore', () => {
  const root = path.join(mkdtempSync(path.join(tmpdir(), 'uiot-local-store-')), 'files');
  const store = new LocalFileStore(root);
  afterAll(() => rmSync(path.dirname(root), { recursive: true, force: true }));

  it('keeps files under their key, in a folder by its first two characters, readable by the server only', async () => {
    await store.check();
    const key = crypto.randomUUID();
    await store.put(key, Buffer.from('content'));
    expect(await store.get(key)).toEqual(Buffer.from('content'));
    const file = path.join(root, key.slice(0, 2), key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(file))).toEqual([key]);
  });

  it('answers FileMissingError for a key it does not hold, and removes quietly what is gone', async () => {
    const key = crypto.randomUUID();
    await expect(store.get(key)).rejects.toBeInstanceOf(FileMissingError);
    await store.remove(key);
    await store.put(key, Buffer.from('x'));
    await store.remove(key);
    await expect(store.get(key)).rejects.toBeInstanceOf(FileMissingError);
  });

  it('takes no key that could name a path', async () => {
    for (const key of ['../../etc/passwd', 'a/b', '..', '', 'x'.repeat(65), 'name with space']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow('invalid file key');
      await expect(store.get(key), key).rejects.toThrow('invalid file key');
    }
  });
});
