/**
 * Bounds how much of one connection the embedded broker (aedes) takes in at a time.
 *
 * aedes reads everything a connection has buffered (up to ~80 KB: several hundred reports), parses it into
 * packets and reads again only once every one of them is handled. Under overload the publish admission
 * (publish-admission.ts) holds those packets, and with a thousand devices the held chunks alone take
 * hundreds of megabytes. Reading at most `maxBytes` per turn bounds what one connection can have in the
 * broker, and TCP keeps the rest on the device.
 *
 * This reaches into aedes' client (`_parser`, `_parsingBatch`, `_nextBatch`): when those are missing (another
 * aedes version), nothing is changed and `false` is returned.
 */
import type { Readable } from 'node:stream';

interface AedesClientInternals {
  _parser: { parse(buf: Buffer): unknown };
  _parsingBatch: number;
  _nextBatch: () => void;
  closed?: boolean;
  _paused?: boolean;
}

function internalsOf(client: unknown): AedesClientInternals | null {
  const c = client as Partial<AedesClientInternals> | null;
  if (
    !c ||
    typeof c._parser?.parse !== 'function' ||
    typeof c._parsingBatch !== 'number' ||
    typeof c._nextBatch !== 'function'
  ) {
    return null;
  }
  return c as AedesClientInternals;
}

/**
 * `maxBytes` is asked at each read: a connection's bound may change once it has signed in (the server's
 * own connection is read in full). `mayRead` false keeps aedes from reading the connection at all: while
 * some of its packets wait for admission. (aedes also reads on every 'readable' event, not only once a
 * chunk is handled, so without this a held connection would still be read chunk after chunk.) It is read
 * again when those packets are handled.
 */
export function boundReads(
  client: unknown,
  conn: Readable,
  maxBytes: number | (() => number),
  mayRead: () => boolean = () => true,
): boolean {
  const c = internalsOf(client);
  if (c === null) return false;
  const read = conn.read;
  const boundOf = typeof maxBytes === 'number' ? () => maxBytes : maxBytes;
  conn.read = function boundedRead(this: Readable, size?: number | null) {
    if (size == null) {
      if (!mayRead()) return null;
      const bound = boundOf();
      if (this.readableLength > bound) return read.call(this, bound);
    }
    return read.call(this, size ?? undefined);
  };

  // aedes reads the next chunk when the last packet of the current one has been handled. A chunk that
  // completes no packet (the cut fell inside one) leaves nothing to handle, and with data still buffered
  // no 'readable' event comes either: read on here.
  const parser = c._parser;
  const parse = parser.parse;
  parser.parse = function boundedParse(this: unknown, buf: Buffer) {
    const result = parse.call(this, buf);
    if (c._parsingBatch === 0 && conn.readableLength > 0) {
      setImmediate(() => {
        if (c._parsingBatch === 0 && !c.closed && !c._paused && conn.readableLength > 0) c._nextBatch();
      });
    }
    return result;
  };
  return true;
}
