import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type Lang, ResultCode, resolveLanguage } from '@uiot/contracts';
import type { FastifyInstance } from 'fastify';
import { httpStatusOf } from './app-error.ts';
import { failure } from './envelope.ts';

/** A complete Accept-Language line of a raw request head. */
const LANGUAGE_LINE = /\r\naccept-language:[ \t]*([^\r\n]*)\r\n/i;
/** Characters kept from one chunk to the next, so that a line split between chunks is still found. */
const CARRY = 512;
/** How much more of an oversized request head is read to find its language, and for how long. */
const READ_ON_BYTES = 1024 * 1024;
const READ_ON_MS = 2_000;
/** How long the socket stays open after the answer, for the client to read it. */
const LINGER_MS = 2_000;

/** The language of a raw request head (latin1 text); undefined when it holds no complete Accept-Language line. */
export function headLanguage(head: string): Lang | undefined {
  const line = LANGUAGE_LINE.exec(head);
  return line ? resolveLanguage(line[1]) : undefined;
}

/** The result code answering an error of Node's HTTP parser. */
export function clientErrorCode(errorCode: string | undefined): ResultCode {
  if (errorCode === 'HPE_HEADER_OVERFLOW') return ResultCode.RequestTooLarge;
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT') return ResultCode.RequestTimeout;
  return ResultCode.MalformedRequest;
}

/** The whole HTTP answer to a request Node's parser refused: the envelope, never cached. */
export function clientErrorResponse(code: ResultCode, lang: Lang): string {
  const status = httpStatusOf(code);
  const body = JSON.stringify(failure(code, lang));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Reads on from a socket whose request head overflowed the limit, up to the end of the head (or a bound),
 * for its Accept-Language line. Node's parser has given the socket up: its reader is replaced by this one.
 */
function readOnForLanguage(socket: Socket, start: string): Promise<Lang | undefined> {
  return new Promise((resolve) => {
    let carried = start.slice(-CARRY);
    let read = 0;
    const finish = (lang: Lang | undefined) => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('close', onClose);
      resolve(lang);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      const text = carried + chunk.toString('latin1');
      const lang = headLanguage(text);
      if (lang !== undefined || text.includes('\r\n\r\n') || read >= READ_ON_BYTES) finish(lang);
      else carried = text.slice(-CARRY);
    };
    const onClose = () => finish(undefined);
    const timer = setTimeout(() => finish(undefined), READ_ON_MS);
    socket.removeAllListeners('data');
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.resume();
  });
}

function answer(socket: Socket, code: ResultCode, lang: Lang | undefined): void {
  if (socket.destroyed || !socket.writable) return;
  socket.end(clientErrorResponse(code, lang ?? resolveLanguage(undefined)));
  // What the client still sends is read and dropped, so that closing does not reset the answer away.
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (head or URL too large, malformed
 * request line or header, timeout) is answered with the envelope in the language of its Accept-Language,
 * instead of Node's or Fastify's own text. An oversized head is read on (bounded) to find that header.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: error.code }, 'client error');
  const code = clientErrorCode(error.code);
  const head = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
  const lang = headLanguage(head);
  if (lang !== undefined || code !== ResultCode.RequestTooLarge || head.includes('\r\n\r\n')) {
    answer(socket, code, lang);
    return;
  }
  void readOnForLanguage(socket, head).then((found) => answer(socket, code, found));
}
