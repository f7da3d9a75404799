import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/support/server-process.ts';
import { selfSignedCertificate } from '../test/support/tls.ts';
import { readTlsFiles, TlsFileError } from './tls-files.ts';

const dir = tempDir('uiot-tls-files-');
const first = selfSignedCertificate(dir.dir);
const otherDir = path.join(dir.dir, 'other');
mkdirSync(otherDir);
const other = selfSignedCertificate(otherDir);

afterAll(() => dir.remove());

/** The one line readTlsFiles fails with. */
function problemOf(certFile: string, keyFile: string): string {
  try {
    readTlsFiles({ certFile, keyFile });
  } catch (error) {
    expect(error).toBeInstanceOf(TlsFileError);
    return (error as Error).message;
  }
  throw new Error('expected a TlsFileError');
}

describe('readTlsFiles', () => {
  it('reads a certificate and its key', () => {
    const material = readTlsFiles({ certFile: first.certFile, keyFile: first.keyFile });
    expect(material.cert).toBe(first.cert);
    expect(material.key).toBe(first.key);
    expect(Date.parse(material.validTo)).toBeGreaterThan(Date.now());
  });

  it('names the variable and the file that cannot be read', () => {
    const missing = path.join(dir.dir, 'missing.pem');
    expect(problemOf(missing, first.keyFile)).toBe(`TLS_CERT: cannot read ${missing} (no such file)`);
    expect(problemOf(first.certFile, missing)).toBe(`TLS_KEY: cannot read ${missing} (no such file)`);
    expect(problemOf(first.certFile, dir.dir)).toBe(`TLS_KEY: cannot read ${dir.dir} (a folder, not a file)`);
  });

  it('refuses files that are not what they are named for', () => {
    expect(problemOf(first.keyFile, first.keyFile)).toBe(
      `TLS_CERT: ${first.keyFile} is not a PEM certificate`,
    );
    expect(problemOf(first.certFile, first.certFile)).toBe(
      `TLS_KEY: ${first.certFile} is not a PEM private key`,
    );
  });

  it('refuses the key of another certificate', () => {
    expect(problemOf(first.certFile, other.keyFile)).toBe(
      `TLS_KEY: ${other.keyFile} is not the key of the certificate in TLS_CERT`,
    );
  });

  it('asks for the key without a passphrase', () => {
    const encrypted = path.join(dir.dir, 'encrypted.pem');
    execFileSync('openssl', [
      'pkey',
      '-in',
      first.keyFile,
      '-aes256',
      '-passout',
      'pass:secret',
      '-out',
      encrypted,
    ]);
    expect(problemOf(first.certFile, encrypted)).toBe(
      `TLS_KEY: ${encrypted} is encrypted; give the key without a passphrase`,
    );
  });
});
