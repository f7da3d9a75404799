import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';

/** The certificate (chain) and its private key, PEM, as read at start-up. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** When the certificate expires (as the certificate says it). */
  validTo: string;
}

/** A TLS file that cannot be used; the message is one line naming the variable. */
export class TlsFileError extends Error {
  override name = 'TlsFileError';
}

function readPem(variable: 'TLS_CERT' | 'TLS_KEY', file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'a folder, not a file'
            : (code ?? (error as Error).message);
    throw new TlsFileError(`${variable}: cannot read ${file} (${reason})`);
  }
}

/** Reads TLS_CERT and TLS_KEY and checks that they are a PEM certificate and its own unencrypted key. */
export function readTlsFiles(tls: NonNullable<Config['tls']>): TlsMaterial {
  const cert = readPem('TLS_CERT', tls.certFile);
  const key = readPem('TLS_KEY', tls.keyFile);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new TlsFileError(`TLS_CERT: ${tls.certFile} is not a PEM certificate`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    // PKCS#8 ("BEGIN ENCRYPTED PRIVATE KEY") and the older "Proc-Type: 4,ENCRYPTED" both say so.
    const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(key);
    throw new TlsFileError(
      encrypted
        ? `TLS_KEY: ${tls.keyFile} is encrypted; give the key without a passphrase`
        : `TLS_KEY: ${tls.keyFile} is not a PEM private key`,
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TlsFileError(`TLS_KEY: ${tls.keyFile} is not the key of the certificate in TLS_CERT`);
  }
  return { cert, key, validTo: certificate.validTo };
}
