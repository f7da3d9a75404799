import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface SelfSignedCertificate {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

/**
 * A self-signed certificate for `console.test`, `localhost` and 127.0.0.1, valid two days, written into
 * `dir` (openssl, as an operator would make one).
 */
export function selfSignedCertificate(dir: string): SelfSignedCertificate {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=console.test',
      '-addext',
      'subjectAltName=DNS:console.test,DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'pipe' },
  );
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}
