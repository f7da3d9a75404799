/**
 * Deliveries to a console (a browser) in the embedded broker: they never hold up anyone else's.
 *
 * aedes completes a delivery only once the receiver's socket has taken it: when a socket's buffer is full
 * it waits for 'drain' (up to its `drainTimeout`, 60 s), and the delivery keeps its slot in the broker's
 * delivery queue meanwhile (concurrency 100). A browser that stops reading (a laptop put to sleep with its
 * connection still open, a frozen tab, a link slower than the events) thus stopped every delivery within a
 * hundred console events: the devices' reports no longer reached the server, and the broker kept every byte
 * written to that browser.
 *
 * A console's events are live-only (the console reads the state again when it reconnects), so a delivery to
 * a console completes at once, whatever its socket, and a console with more than `maxBacklogBytes` still
 * unwritten is disconnected rather than fed. Other clients keep aedes' own behaviour: the server's
 * connection must push back, and a device receives few commands.
 */
import type { Writable } from 'node:stream';

/** Unwritten bytes after which a console is disconnected: two seconds of a station's events at full pace. */
export const CONSOLE_BACKLOG_BYTES = 8 * 1024 * 1024;

type Deliver = (packet: unknown, done: () => void) => void;

interface DeliveringClient {
  deliver0: Deliver;
  closed?: boolean;
  close(done?: () => void): void;
}

function deliveringClientOf(client: unknown): DeliveringClient | null {
  const c = client as Partial<DeliveringClient> | null;
  if (!c || typeof c.deliver0 !== 'function' || typeof c.close !== 'function') return null;
  return c as DeliveringClient;
}

function ignore(): void {}

/**
 * Patches the client's QoS 0 delivery (aedes binds it to each subscription when it is made, so this runs
 * before any). `isConsole` is asked at each delivery: who holds the connection is known once it signed in.
 * `behind` is called once, when the console is disconnected for its backlog. Returns false, changing
 * nothing, for a client without the internals this knows (another aedes version).
 */
export function deliverToConsolesWithoutWaiting(
  client: unknown,
  conn: Writable,
  isConsole: () => boolean,
  behind: (backlogBytes: number) => void,
  maxBacklogBytes = CONSOLE_BACKLOG_BYTES,
): boolean {
  const c = deliveringClientOf(client);
  if (c === null) return false;
  const deliver0 = c.deliver0;
  c.deliver0 = function consoleDeliver0(this: unknown, packet, done) {
    if (!isConsole()) {
      deliver0.call(this, packet, done);
      return;
    }
    if (!c.closed && conn.writableLength > maxBacklogBytes) {
      behind(conn.writableLength);
      c.close();
    }
    if (!c.closed) deliver0.call(this, packet, ignore);
    setImmediate(done);
  };
  return true;
}
