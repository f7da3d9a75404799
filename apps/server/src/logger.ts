import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

/** Query parameters whose values never reach the log (the self-registration code travels in a GET query). */
const SECRET_QUERY = /([?&](?:verificationCode|pwd|password|token)=)[^&#]*/gi;

export function maskSecretQuery(url: string): string {
  return url.replace(SECRET_QUERY, '$1***');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Structured logs; credentials in headers, bodies and query strings are never written. */
export function createLogger(level: Config['logLevel']): Logger {
  return pino({
    level,
    serializers: {
      // Fastify's request fields, with secret query values masked.
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: typeof req.url === 'string' ? maskSecretQuery(req.url) : req.url,
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.pwd',
        '*.token',
        '*.oldPwd',
        '*.newPwd',
        '*.confirmPwd',
      ],
      censor: '***',
    },
  });
}
