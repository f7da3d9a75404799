import { createConnection, type Socket } from 'node:net';
import { encodeTcpAuth, encodeTcpReport } from '@uiot/device-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../lib/test-support.ts';
import type { IngestOutcome, IngestPipeline } from '../ingest/ingest-pipeline.ts';
import {
  createTcpDirect,
  MAX_IN_FLIGHT,
  RECEIVE_TIME_STEP_MS,
  type TcpDirectListener,
} from './tcp-direct.ts';

/**
 * The adapter's flow control, with ingest stood in for: what it is given, and when it answers. (The real
 * pipeline behind a TcpDirect lock is tested in test/device-bus.test.ts.)
 */
function heldIngest(answerAtOnce: boolean) {
  const answers: Array<(outcome: IngestOutcome) => void> = [];
  const receivedAt: number[] = [];
  let submitted = 0;
  const ingest = {
    saturated: false,
    whenDrained: () => Promise.resolve(),
    refuse: () => {},
    submit: (inbound: { receivedAt: number }) => {
      submitted += 1;
      receivedAt.push(inbound.receivedAt);
      if (answerAtOnce) return Promise.resolve('stored' as IngestOutcome);
      return new Promise<IngestOutcome>((resolve) => answers.push(resolve));
    },
  };
  return {
    ingest: ingest as unknown as IngestPipeline,
    answers,
    receivedAt,
    get submitted() {
      return submitted;
    },
  };
}

const STATION = 'S1';
const silent = { info: () => {}, warn: () => {} };
let listener: TcpDirectListener | null = null;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await listener?.close();
  listener = null;
});

async function lockOn(ingest: IngestPipeline, now?: () => number): Promise<Socket> {
  listener = createTcpDirect({
    ...(now ? { now } : {}),
    host: '127.0.0.1',
    port: 0,
    credentials: { authenticate: async (code) => ({ deviceId: `id-${code}`, stationId: STATION, code }) },
    ingest,
    logger: silent,
  });
  await listener.listen();
  const socket = createConnection({ host: '127.0.0.1', port: listener.port });
  sockets.push(socket);
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(encodeTcpAuth(STATION, 'L-1', 'secret-of-L-1'));
  return socket;
}

function reports(count: number): Buffer {
  return Buffer.concat(
    Array.from({ length: count }, (_, i) => encodeTcpReport({ messageId: `m-${i}`, event: 'heartbeat' })),
  );
}

/** Waits until `read()` has stayed the same for `ms`, and answers it. */
async function settled(read: () => number, ms = 300): Promise<number> {
  let last = -1;
  while (read() !== last) {
    last = read();
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  return last;
}

describe('TcpDirect flow control', () => {
  it(`stops reading a lock while ${MAX_IN_FLIGHT} of its messages wait for their commit`, async () => {
    const held = heldIngest(false);
    const socket = await lockOn(held.ingest);
    const total = 5 * MAX_IN_FLIGHT;
    socket.write(reports(total));
    await waitFor(() => held.submitted >= MAX_IN_FLIGHT, 10_000, `${MAX_IN_FLIGHT} messages submitted`);
    const plateau = await settled(() => held.submitted);
    // What was read before the pause is taken (a read is up to 64 KiB, some 600 frames), no more.
    expect(plateau).toBeGreaterThanOrEqual(MAX_IN_FLIGHT);
    expect(plateau).toBeLessThan(2 * MAX_IN_FLIGHT);
    // Answered, the messages make room and the rest is read, in as many rounds as it takes.
    await waitFor(
      () => {
        for (const answer of held.answers.splice(0)) answer('stored');
        return held.submitted === total;
      },
      20_000,
      'every message submitted',
    );
  });

  it('stops reading a lock that leaves its receipts unread, and reads on once it reads them', async () => {
    const held = heldIngest(true);
    const socket = await lockOn(held.ingest);
    socket.pause();
    // Receipts of ~40 bytes each: far more than the sockets' own buffers hold.
    const total = 200_000;
    socket.write(reports(total));
    const plateau = await settled(() => held.submitted);
    expect(plateau).toBeLessThan(total);
    let receipts = 0;
    socket.on('data', (chunk: Buffer) => {
      receipts += chunk.length;
    });
    socket.resume();
    await waitFor(() => held.submitted === total, 30_000, 'every message submitted');
    expect(receipts).toBeGreaterThan(0);
  });

  it('gives the messages of a connection receive times in their order, a step apart at least', async () => {
    const held = heldIngest(true);
    const today = Date.UTC(2026, 11, 3, 12);
    const socket = await lockOn(held.ingest, () => today);
    socket.write(reports(3_000));
    await waitFor(() => held.submitted === 3_000, 5_000, 'every message');
    expect(held.receivedAt[0]).toBe(today);
    // Strictly later each time, once rounded to the microseconds a timestamp keeps.
    const stored = held.receivedAt.map((ms) => Math.round(ms * 1000));
    for (let i = 1; i < stored.length; i++) expect(stored[i]! - stored[i - 1]!).toBeGreaterThanOrEqual(1);
    // And no more than a step later: 3 000 messages of one instant span some 6 ms.
    expect(held.receivedAt.at(-1)! - today).toBeLessThanOrEqual(2_999 * RECEIVE_TIME_STEP_MS);
  });
});
