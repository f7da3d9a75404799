import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../lib/test-support.ts';
import { boundReads } from './bounded-reads.ts';

/**
 * A client shaped like aedes': reads everything buffered on 'readable', parses it, and reads again only once
 * every packet of the chunk is handled. Its "packets" are fixed-size records, handled asynchronously.
 */
function aedesLikeClient(conn: PassThrough, packetBytes: number) {
  const chunks: number[] = [];
  const packets: Buffer[] = [];
  let partial = Buffer.alloc(0);
  const client = {
    _parsingBatch: 1,
    closed: false,
    _parser: {
      parse(buf: Buffer) {
        chunks.push(buf.length);
        partial = Buffer.concat([partial, buf]);
        while (partial.length >= packetBytes) {
          const packet = partial.subarray(0, packetBytes);
          partial = partial.subarray(packetBytes);
          client._parsingBatch += 1;
          setImmediate(() => {
            packets.push(packet);
            client._nextBatch();
          });
        }
      },
    },
    _nextBatch() {
      client._parsingBatch -= 1;
      if (client._parsingBatch <= 0) {
        client._parsingBatch = 0;
        // aedes asks for everything buffered with read(null).
        const buf = (conn.read as (size: number | null) => Buffer | null)(null);
        if (buf) client._parser.parse(buf);
      }
    },
  };
  conn.on('readable', () => client._nextBatch());
  return { client, chunks, packets };
}

describe('boundReads', () => {
  it('hands the parser at most the bound per read', async () => {
    const conn = new PassThrough({ highWaterMark: 64 * 1024 });
    const { client, chunks, packets } = aedesLikeClient(conn, 100);
    expect(boundReads(client, conn, 1000)).toBe(true);
    conn.write(Buffer.alloc(30_000, 1));
    await waitFor(() => packets.length === 300, 5_000, 'every packet');
    expect(Math.max(...chunks)).toBe(1000);
    expect(chunks.reduce((sum, n) => sum + n, 0)).toBe(30_000);
  });

  it('reads on when a bounded chunk completes no packet (the cut fell inside a large one)', async () => {
    const conn = new PassThrough({ highWaterMark: 64 * 1024 });
    const { client, packets } = aedesLikeClient(conn, 20_000);
    boundReads(client, conn, 1000);
    // One write, nothing after it: no further 'readable' event comes for what stays buffered.
    conn.write(Buffer.alloc(40_000, 2));
    await waitFor(() => packets.length === 2, 5_000, 'both large packets');
    expect(conn.readableLength).toBe(0);
  });

  it('does not read a connection while it may not, and reads it again when the client next asks', async () => {
    const conn = new PassThrough({ highWaterMark: 64 * 1024 });
    const { client, chunks, packets } = aedesLikeClient(conn, 100);
    let open = false;
    boundReads(client, conn, 1000, () => open);
    conn.write(Buffer.alloc(5_000, 3));
    await new Promise((resolve) => setTimeout(resolve, 50));
    conn.write(Buffer.alloc(5_000, 3)); // another 'readable' event: still nothing read
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chunks).toEqual([]);
    open = true;
    client._nextBatch(); // what aedes does when a held packet has been handled
    await waitFor(() => packets.length === 100, 5_000, 'every packet once open');
    expect(Math.max(...chunks)).toBe(1000);
  });

  it('asks the bound at each read: a bound lifted on the way takes the rest in one read', async () => {
    const conn = new PassThrough({ highWaterMark: 64 * 1024 });
    const { client, chunks, packets } = aedesLikeClient(conn, 100);
    let bound = 1000;
    boundReads(client, conn, () => bound);
    conn.write(Buffer.alloc(1_000, 4));
    await waitFor(() => packets.length === 10, 5_000, 'the first chunk');
    bound = Number.POSITIVE_INFINITY;
    conn.write(Buffer.alloc(30_000, 4));
    await waitFor(() => packets.length === 310, 5_000, 'every packet');
    expect(chunks).toEqual([1_000, 30_000]);
  });

  it('leaves a client alone whose internals it does not know', () => {
    const conn = new PassThrough();
    const read = conn.read;
    expect(boundReads({ _parser: {} }, conn, 1000)).toBe(false);
    expect(conn.read).toBe(read);
  });
});
