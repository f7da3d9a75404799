import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { deliverToConsolesWithoutWaiting } from './console-deliveries.ts';

/** A socket that takes nothing: every byte written stays in its buffer. */
function stalledSocket(): Writable {
  return new Writable({ highWaterMark: 1024, write: () => {} });
}

/** A client shaped like aedes': its delivery writes the packet and completes only once the socket drains. */
function aedesLikeClient(conn: Writable) {
  const client = {
    closed: false,
    closes: 0,
    written: [] as string[],
    deliver0(packet: unknown, done: () => void) {
      client.written.push(String(packet));
      if (conn.write(String(packet))) setImmediate(done);
      else conn.once('drain', done);
    },
    close() {
      client.closed = true;
      client.closes += 1;
    },
  };
  return client;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A client on a stalled socket, patched, given five deliveries of 2 000 bytes; counts those completed. */
function fiveDeliveries(isConsole: boolean, maxBacklogBytes: number) {
  const conn = stalledSocket();
  const client = aedesLikeClient(conn);
  deliverToConsolesWithoutWaiting(
    client,
    conn,
    () => isConsole,
    () => {},
    maxBacklogBytes,
  );
  const completed = { count: 0 };
  for (let i = 0; i < 5; i++) client.deliver0('x'.repeat(2_000), () => completed.count++);
  return { client, completed };
}

describe('deliverToConsolesWithoutWaiting', () => {
  it("completes a console's delivery at once, though its socket never drains", async () => {
    const { client, completed } = fiveDeliveries(true, 1_000_000);
    await turn();
    expect(completed.count).toBe(5);
    expect(client.written).toHaveLength(5);
    expect(client.closed).toBe(false);
  });

  it('leaves any other client to wait for its socket, as aedes does', async () => {
    const { client, completed } = fiveDeliveries(false, 1_000);
    await turn();
    await turn();
    expect(completed.count).toBe(0);
    expect(client.written).toHaveLength(5);
    expect(client.closed).toBe(false);
  });

  it('disconnects a console with more than the bound unwritten, once, and writes it nothing more', async () => {
    const conn = stalledSocket();
    const client = aedesLikeClient(conn);
    const behind: number[] = [];
    deliverToConsolesWithoutWaiting(
      client,
      conn,
      () => true,
      (bytes) => behind.push(bytes),
      5_000,
    );
    let done = 0;
    for (let i = 0; i < 6; i++) client.deliver0('x'.repeat(2_000), () => done++);
    await turn();
    // 2 000, 4 000, 6 000 bytes unwritten: the fourth delivery finds more than 5 000 and closes.
    expect(client.written).toHaveLength(3);
    expect(behind).toEqual([6_000]);
    expect(client.closes).toBe(1);
    expect(done).toBe(6);
  });

  it('asks at each delivery whether the client is a console (known once it has signed in)', async () => {
    const conn = stalledSocket();
    const client = aedesLikeClient(conn);
    let signedIn = false;
    deliverToConsolesWithoutWaiting(
      client,
      conn,
      () => signedIn,
      () => {},
      1_000_000,
    );
    let done = 0;
    client.deliver0('a'.repeat(2_000), () => done++);
    signedIn = true;
    client.deliver0('b'.repeat(2_000), () => done++);
    await turn();
    expect(done).toBe(1);
  });

  it('leaves a client alone whose internals it does not know', () => {
    expect(
      deliverToConsolesWithoutWaiting(
        { close() {} },
        stalledSocket(),
        () => true,
        () => {},
      ),
    ).toBe(false);
    expect(
      deliverToConsolesWithoutWaiting(
        null,
        stalledSocket(),
        () => true,
        () => {},
      ),
    ).toBe(false);
  });
});
