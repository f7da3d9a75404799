import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

/** Structured logs; credentials in headers and bodies are never written. */
export function createLogger(level: Config['logLevel']): Logger {
  return pino({
    level,
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
