/**
 * The embedded broker's delivery queue (aedes' mqemitter), without its stack overflow.
 *
 * mqemitter delivers at most `concurrency` messages at once and queues the rest. When a delivery completes,
 * the completion itself starts the next queued message; a message whose deliveries complete at once (nobody
 * subscribed to its topic, a `$SYS` notice the broker handles in place) completes inside that start, which
 * starts the next, and so on: the whole queue unwinds as one recursion, three frames per message. With
 * 10 000 devices the queue reached a few thousand messages and the broker died of "Maximum call stack size
 * exceeded", dropping every connection; the reports it had acknowledged to their devices and not yet
 * delivered were lost with its memory.
 *
 * Here a queued message that would be started more than `maxDepth` levels deep goes back to the head of
 * the queue, its slot kept, and the queue goes on from the next turn of the event loop (setImmediate). The
 * order stays the queue's: whichever completion comes first takes that message first.
 */
import mqemitter from 'mqemitter';

type Message = mqemitter.Message;
type Done = (error?: Error) => void;

/** What is reached of mqemitter's own state (mqemitter.js 7.x). */
interface EmitterInternals {
  current: number;
  _messageQueue: Message[];
  _messageCallbacks: Done[];
  _released: () => void;
  _do: (message: Message, callback: Done) => unknown;
  emit: (message: Message, callback?: Done) => unknown;
}

/** Nested starts allowed before the queue waits for the next turn (far below Node's ~10 000 frames). */
const MAX_DELIVERY_DEPTH = 200;

export function deliveryEmitter(options: { concurrency: number; maxDepth?: number }): mqemitter.MQEmitter {
  // As aedes makes its own: an empty topic level is matched by a wildcard [MQTT-4.7.1-3].
  const emitter = mqemitter({ concurrency: options.concurrency, matchEmptyLevels: true });
  const inner = emitter as unknown as EmitterInternals;
  if (
    typeof inner._do !== 'function' ||
    typeof inner._released !== 'function' ||
    !Array.isArray(inner._messageQueue) ||
    !Array.isArray(inner._messageCallbacks)
  ) {
    throw new Error('this mqemitter version does not have the queue the embedded broker paces');
  }
  const maxDepth = options.maxDepth ?? MAX_DELIVERY_DEPTH;
  const start = inner._do;
  const emit = inner.emit;
  let depth = 0;
  // A message `emit` starts itself is new: it is never put before the queue. Only those the queue starts
  // (a completion taking the next one) are counted and may wait.
  let fromEmit = false;

  inner.emit = function emitMessage(message, callback) {
    fromEmit = true;
    try {
      return emit.call(this, message, callback);
    } finally {
      fromEmit = false;
    }
  };

  inner._do = function startDelivery(message, callback) {
    const direct = fromEmit;
    fromEmit = false;
    if (!direct && depth >= maxDepth) {
      this._messageQueue.unshift(message);
      this._messageCallbacks.unshift(callback);
      // The slot stays taken until the next turn, when the queue's own release gives it back and starts
      // the head of the queue.
      this.current++;
      setImmediate(this._released);
      return this;
    }
    depth++;
    try {
      return start.call(this, message, callback);
    } finally {
      depth--;
    }
  };
  return emitter;
}
