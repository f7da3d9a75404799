/**
 * Admission of device publishes into the embedded broker's delivery (aedes + mqemitter).
 *
 * Without it an overloaded aedes collapses: every connection's read chunk (hundreds of QoS 1 reports) goes
 * into mqemitter's delivery queue at once, the queue grows to hundreds of thousands, each delivery then pays
 * for an `Array.shift` over the whole queue, delivery falls to a few hundred per second and, once the
 * queue is released in one go, the process dies of a stack overflow.
 *
 * Here a publish enters delivery only while the delivery queue is short. Otherwise its authorisation
 * answer is held in a FIFO and given once the queue has drained: aedes does not read the next chunk of a
 * connection before every packet of the current one is answered, so a held device stops being read and TCP
 * pushes back on it, while the broker keeps delivering at full speed. What waits here is bounded by the
 * chunks already read (one per connection).
 */

/** What admission reads of the broker: messages waiting for a delivery slot. */
export interface DeliveryQueue {
  readonly length: number;
}

export interface PublishAdmissionOptions {
  /** Admit at once while fewer than this many messages wait for delivery. */
  high: number;
  /** Once holding, let held publishes in while fewer than this many wait for delivery. */
  low: number;
  /** Runs `check` soon (the broker: `setImmediate`). */
  schedule: (check: () => void) => void;
}

export class PublishAdmission {
  private held: Array<() => void> = [];
  private head = 0;
  private scheduled = false;
  /** Publishes that had to wait, since the start (for the broker's statistics). */
  heldTotal = 0;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly options: PublishAdmissionOptions,
  ) {
    if (!(options.low >= 0 && options.low <= options.high)) {
      throw new RangeError(`admission needs 0 <= low <= high, not low ${options.low}, high ${options.high}`);
    }
  }

  /** Publishes waiting now. */
  get waiting(): number {
    return this.held.length - this.head;
  }

  /** Calls `enter` now when delivery keeps up, else once it has caught up; order is kept. */
  admit(enter: () => void): void {
    if (this.waiting === 0 && this.queue.length < this.options.high) {
      enter();
      return;
    }
    this.held.push(enter);
    this.heldTotal += 1;
    this.plan();
  }

  /** Releases every held publish at once (the broker is closing: aedes refuses them itself). */
  releaseAll(): void {
    while (this.waiting > 0) this.next()();
  }

  private plan(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.options.schedule(() => {
      this.scheduled = false;
      this.release();
    });
  }

  /**
   * Lets in as many as the queue has room for below `low`, counted before letting any in: a publish may
   * reach the queue only after a few promise turns, so the queue's length alone would let all through.
   */
  private release(): void {
    let room = this.options.low - this.queue.length;
    while (this.waiting > 0 && room > 0) {
      this.next()();
      room -= 1;
    }
    if (this.waiting > 0) this.plan();
  }

  private next(): () => void {
    const enter = this.held[this.head] as () => void;
    this.head += 1;
    // Compact now and then instead of shifting: shift is what makes a long queue slow.
    if (this.head === this.held.length) {
      this.held = [];
      this.head = 0;
    } else if (this.head >= 4096 && this.head * 2 >= this.held.length) {
      this.held = this.held.slice(this.head);
      this.head = 0;
    }
    return enter;
  }
}
