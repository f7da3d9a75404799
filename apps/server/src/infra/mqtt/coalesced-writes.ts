/**
 * Coalesces what the embedded broker writes to one connection within a turn of the event loop.
 *
 * aedes writes each packet with mqtt-packet, which corks the stream and uncorks it on the next tick, so
 * every packet becomes a write system call of its own. Towards the server's connection that is one call per
 * report forwarded, and on loopback each call also pays the receiving side's TCP work: the broker spent a
 * third of its time in `writev`. Deferring the uncork to the end of the turn (setImmediate) sends what the
 * turn wrote in one call; nothing waits longer than that turn.
 */
import type { Writable } from 'node:stream';

export function coalesceWrites(stream: Writable): void {
  const uncork = stream.uncork.bind(stream);
  let deferred = 0;
  const flush = () => {
    const count = deferred;
    deferred = 0;
    for (let i = 0; i < count; i++) uncork();
  };
  stream.uncork = function deferredUncork() {
    deferred++;
    if (deferred === 1) setImmediate(flush);
  };
  // What was written before a connection is ended or destroyed (a refused CONNACK) still goes first.
  const end = stream.end.bind(stream);
  const destroy = stream.destroy.bind(stream);
  stream.end = ((...args: Parameters<Writable['end']>) => {
    flush();
    return end(...args);
  }) as Writable['end'];
  stream.destroy = (error?: Error) => {
    flush();
    return destroy(error);
  };
}
