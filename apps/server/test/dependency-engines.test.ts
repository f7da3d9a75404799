import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

describe('the installed dependencies', () => {
  it('all run on the oldest Node.js the project declares', () => {
    const declared: string = readJson('package.json').engines.node;
    const oldest = semver.minVersion(declared)!.version;
    const lock = readJson('package-lock.json') as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, entry]) => {
        const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return node && !semver.satisfies(oldest, node) ? [`${name} (node ${node})`] : [];
      });
    expect(refusing, `packages that need a newer Node.js than ${oldest}`).toEqual([]);
  });
});
