import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.ts';
import { loggableError } from './lib/module-logger.ts';
import { hasSecretWord } from './lib/secret-names.ts';

/**
 * Query parameters whose values never reach the log: a one-time code (self-registration, alarm board), or a
 * name with a secret word among its words (`hasSecretWord`, the rule of command parameters too).
 */
const SECRET_NAMES = new Set(['code', 'verificationcode']);
const QUERY_PARAM = /([?&])([^=&#]*)=([^&#]*)/g;

function isSecretName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {}
  return SECRET_NAMES.has(decoded.toLowerCase()) || hasSecretWord(decoded);
}

/** The URL with the value of every secret query parameter replaced by `***`. */
export function maskSecretQuery(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  return (
    url.slice(0, query) +
    url
      .slice(query)
      .replace(QUERY_PARAM, (whole, sep: string, name: string) =>
        isSecretName(name) ? `${sep}${name}=***` : whole,
      )
  );
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * How the log is written: readable lines for a person at a terminal, JSON lines (one object a line) for
 * whatever reads the output otherwise (a service manager's journal, a log collector).
 */
export function logOutput(format: Config['logFormat'], isTerminal: boolean): 'pretty' | 'json' {
  if (format === 'auto') return isTerminal ? 'pretty' : 'json';
  return format;
}

/**
 * Readable lines: time, level, message and its fields on one line; in colour on a terminal that takes it
 * (standard output, unless NO_COLOR), never into another destination.
 */
function prettyStream(destination: NodeJS.WritableStream | undefined): DestinationStream {
  return pretty({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    // Written at once, so that lines are not lost on exit and keep their order with the password notice.
    sync: true,
    ...(destination ? { destination, colorize: false } : {}),
  });
}

/**
 * Structured logs; credentials in headers, bodies and query strings are never written, in either output
 * (the redaction happens before a line reaches it). Pretty lines go to `destination`, standard output by
 * default.
 */
export function createLogger(
  level: Config['logLevel'],
  output: 'pretty' | 'json' = 'json',
  destination?: NodeJS.WritableStream,
): Logger {
  const options: LoggerOptions = {
    level,
    serializers: {
      // Errors without the parameter values of a failed statement (hashes, tokens, PINs).
      err: loggableError,
      error: (value: unknown) => (value instanceof Error ? loggableError(value) : value),
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
  };
  if (output === 'pretty') return pino(options, prettyStream(destination));
  return destination ? pino(options, destination as DestinationStream) : pino(options);
}
