import { describe, expect, it } from 'vitest';
import { READ_CHUNK_BYTES, readChunkBytesOf } from './broker-listeners.ts';

describe('readChunkBytesOf', () => {
  it('reads the server’s own connection in full', () => {
    expect(readChunkBytesOf({ kind: 'internal' })).toBe(Number.POSITIVE_INFINITY);
  });

  it('bounds a device, a console and a connection not yet signed in', () => {
    expect(READ_CHUNK_BYTES).toBe(8192);
    expect(readChunkBytesOf(undefined)).toBe(READ_CHUNK_BYTES);
    expect(readChunkBytesOf({ kind: 'device', stationId: 's1', deviceCode: 'LOCK-1' })).toBe(
      READ_CHUNK_BYTES,
    );
    expect(readChunkBytesOf({ kind: 'chirpstack' })).toBe(READ_CHUNK_BYTES);
    expect(readChunkBytesOf({ kind: 'console', stationId: 's1', session: 'h', kinds: ['runtime'] })).toBe(
      READ_CHUNK_BYTES,
    );
  });
});
