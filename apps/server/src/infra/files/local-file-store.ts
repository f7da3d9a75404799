import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileMissingError, type FileStore } from './file-store.ts';

/** Keys are generated ids: letters, digits and hyphens only, so no key can name a path outside the folder. */
const KEY = /^[A-Za-z0-9-]{8,64}$/;

/**
 * Files in a local directory (`DATA_DIR/files`), one per key, in sub-folders by the key's first two
 * characters so that no folder grows too large. A file is written under a temporary name and renamed, so a
 * reader never sees half of one; files and folders are readable by the server's user only.
 */
export class LocalFileStore implements FileStore {
  readonly description: string;

  constructor(private readonly root: string) {
    this.description = `directory ${root}`;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    const probe = path.join(this.root, `.probe-${randomBytes(6).toString('hex')}`);
    await writeFile(probe, '', { mode: 0o600 });
    await rm(probe, { force: true });
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const partial = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      const handle = await open(partial, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileMissingError(key);
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('invalid file key');
    return path.join(this.root, key.slice(0, 2), key);
  }
}
