/**
 * The behaviour of one simulated lock, as a pure state machine: the caller injects the clock (every call
 * passes `now`, ms) and a seeded PRNG, so a test can walk a lock through hours in microseconds and the same
 * seed always gives the same story.
 *
 * Events are scheduled as absolute times drawn from the PRNG (not as per-tick probabilities), so the
 * behaviour does not depend on how often the caller ticks; one `tick` applies every event that fell due, in
 * time order.
 */
import {
  type CommandResult,
  type DeviceCommand,
  type DeviceReport,
  type DoorState,
  dropStoredPin,
  EMPTY_PIN_MEMORY,
  type ExtensionProps,
  type LockPinMemory,
  type LockState,
  type PinRefusal,
  type ReportEvent,
  type RunState,
  revokePin,
  specOfDeletePinParams,
  storedIdOfDeletePinParams,
  storedPinOfParams,
  storePin,
  enterPin as verifyPin,
} from '@uiot/device-protocol';
import type { Random } from './random.ts';

export type ReportToSend = Omit<DeviceReport, 'kind'>;
export type ResultToSend = Omit<CommandResult, 'kind'>;

/** How a lock behaves; every rate is a mean in simulated time. */
export interface LockBehaviour {
  heartbeatSeconds: number;
  /** Mean time between two door-open episodes (someone unlocks, opens, closes). */
  doorEpisodeMeanSeconds: number;
  /** Share of episodes where the door is left open past the 5-minute limit. */
  forgottenDoorProbability: number;
  damageMeanSeconds: number;
  offlineMeanSeconds: number;
  /** Battery percentage points lost per hour. */
  batteryDrainPerHour: number;
  /** Share of open/close commands the bolt fails to execute. */
  jamProbability: number;
  /** Share of remote unlocks after which someone actually opens the door (else the lock relocks itself). */
  doorAfterRemoteOpenProbability: number;
}

export const DEFAULT_BEHAVIOUR: Readonly<LockBehaviour> = {
  heartbeatSeconds: 60,
  doorEpisodeMeanSeconds: 2 * 3600,
  forgottenDoorProbability: 0.05,
  damageMeanSeconds: 14 * 86_400,
  offlineMeanSeconds: 2 * 86_400,
  batteryDrainPerHour: 0.02,
  jamProbability: 0.02,
  doorAfterRemoteOpenProbability: 0.7,
};

/** Below this charge a lock is `lowPower` (spec §4). */
export const LOW_BATTERY_PERCENT = 20;
/** A door open longer than this turns the lock's run state into `timeOutNotClosed`. */
export const DOOR_OPEN_LIMIT_MS = 5 * 60_000;
/** An unlocked lock whose door nobody opens throws its bolt again after this long. */
export const AUTO_RELOCK_MS = 30_000;
/** Charge one bolt movement costs, percentage points. */
const BOLT_MOVE_COST = 0.01;
const MESSAGE_ID_MAX = 64;

export interface LockSnapshot {
  lock: LockState;
  door: DoorState;
  /** Charge, %, with fractions (reports carry it truncated to an integer). */
  battery: number;
  runState: RunState;
  online: boolean;
}

export interface LockModelOptions {
  code: string;
  /** Differs on every start of the simulator, so that a restarted lock never reuses a message id. */
  idPrefix: string;
  random: Random;
  startAt: number;
  behaviour?: Partial<LockBehaviour>;
  /** Initial charge, %; drawn from 15–100 when absent so that some locks start low. */
  battery?: number;
  /** The lock's offline-PIN secret (20 bytes, docs/offline-pins.md); without one every PIN is refused. */
  pinSecret?: Uint8Array;
  /** The station clock's offset from UTC, minutes, that PIN windows are counted in (default UTC+8). */
  utcOffsetMinutes?: number;
}

/** What the keypad did with a code: the PIN's reference when it was accepted, else why not. */
export type PinEntryOutcome =
  | { outcome: 'opened' | 'erased'; pinRef: string }
  | { outcome: 'refused'; reason: PinRefusal };

/** The station clock, UTC+8 (docs/offline-pins.md). */
export const STATION_UTC_OFFSET_MINUTES = 480;

type EpisodeStep = 'doorOpens' | 'doorCloses' | 'lockCloses';

interface Episode {
  step: EpisodeStep;
  at: number;
  doorOpenMs: number;
}

type Due =
  | 'heartbeat'
  | 'episodeStart'
  | 'episodeStep'
  | 'doorTimeout'
  | 'damage'
  | 'offline'
  | 'lowBattery'
  | 'autoRelock';

const NEVER = Number.POSITIVE_INFINITY;

export class LockModel {
  readonly code: string;
  private readonly random: Random;
  private readonly behaviour: LockBehaviour;
  private readonly idStem: string;
  private readonly startAt: number;
  private readonly initialBattery: number;
  private readonly rssiBase: number;
  private readonly pinSecret: Uint8Array | null;
  private readonly utcOffsetMinutes: number;

  private counter = 0;
  private booted = false;
  private lastAt: number;
  private lock: LockState = 'closed';
  private door: DoorState = 'closed';
  private batteryUsedByBolt = 0;
  private damaged = false;
  private timedOut = false;
  private online = true;
  private lowBatterySent = false;
  private pending: ReportToSend[] = [];
  /** PIN reports made while offline, sent once the lock is back (the server needs every use). */
  private heldPinReports: ReportToSend[] = [];
  private pinMemory: LockPinMemory = EMPTY_PIN_MEMORY;

  private nextHeartbeatAt: number;
  private nextEpisodeAt: number;
  private episode: Episode | null = null;
  private doorTimeoutAt = NEVER;
  private damageAt: number;
  private offlineAt: number;
  private autoRelockAt = NEVER;

  constructor(options: LockModelOptions) {
    this.code = options.code;
    this.random = options.random;
    this.behaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
    this.startAt = options.startAt;
    this.lastAt = options.startAt;
    this.idStem = messageIdStem(options.idPrefix, options.code);
    this.initialBattery = options.battery ?? Math.round(this.random.between(15, 100));
    this.rssiBase = this.random.int(-105, -60);
    this.pinSecret = options.pinSecret ?? null;
    this.utcOffsetMinutes = options.utcOffsetMinutes ?? STATION_UTC_OFFSET_MINUTES;
    // A random phase spreads the first heartbeats of a fleet started at once over one interval.
    this.nextHeartbeatAt = this.startAt + this.random.next() * this.heartbeatMs();
    this.nextEpisodeAt = this.startAt + this.random.exponential(this.behaviour.doorEpisodeMeanSeconds * 1000);
    this.damageAt = this.startAt + this.random.exponential(this.behaviour.damageMeanSeconds * 1000);
    this.offlineAt = this.startAt + this.random.exponential(this.behaviour.offlineMeanSeconds * 1000);
  }

  /** The state as of the last `tick` / `handleCommand`. */
  get state(): LockSnapshot {
    return {
      lock: this.lock,
      door: this.door,
      battery: this.batteryAt(this.lastAt),
      runState: this.runStateAt(this.lastAt),
      online: this.online,
    };
  }

  get heartbeatSeconds(): number {
    return this.behaviour.heartbeatSeconds;
  }

  /** Reports the lock sends by `now` (the boot report first); none while the lock is offline. */
  tick(now: number): ReportToSend[] {
    this.advance(now);
    const reports = this.pending;
    this.pending = [];
    return reports;
  }

  /**
   * Executes a command received at `now` (simulated time), answering as the lock would, or null when the
   * lock does not answer: it is offline, or the command expired before it arrived (`wallClock`, the real
   * time, because the server sets `expireAt` on the real clock even when the simulation runs faster).
   * A state change also queues a report for the next `tick`.
   */
  handleCommand(command: DeviceCommand, now: number, wallClock: number = now): ResultToSend | null {
    this.advance(now);
    if (!this.online) return null;
    if (command.expireAt !== undefined && command.expireAt < wallClock) return null;
    const answer = (outcome: 'Success' | 'Failure', detail?: string): ResultToSend => ({
      messageId: this.nextMessageId(),
      commandId: command.id,
      outcome,
      ...(detail === undefined ? {} : { detail }),
      reportedAt: wallClock,
    });
    switch (command.cmd) {
      case 'open':
      case 'close': {
        if (this.damaged) return answer('Failure', 'damaged');
        if (this.random.chance(this.behaviour.jamProbability)) return answer('Failure', 'jammed');
        const target: LockState = command.cmd === 'open' ? 'open' : 'closed';
        // The lock answers first, then reports its new state.
        const success = answer('Success');
        if (this.lock !== target) {
          this.lock = target;
          this.batteryUsedByBolt += BOLT_MOVE_COST;
          this.emit('lockChanged', now);
          if (target === 'open') this.afterRemoteOpen(now);
          else this.autoRelockAt = NEVER;
        }
        return success;
      }
      case 'setParam': {
        const heartbeat = command.params?.heartbeatSeconds;
        if (typeof heartbeat === 'number' && heartbeat >= 10 && heartbeat <= 86_400) {
          this.behaviour.heartbeatSeconds = heartbeat;
          this.nextHeartbeatAt = now + this.jitteredHeartbeatMs();
        }
        return answer('Success');
      }
      case 'setPassword':
        return answer('Success');
      case 'deletePin': {
        const storedId = storedIdOfDeletePinParams(command.params);
        if (storedId !== null) {
          this.pinMemory = dropStoredPin(this.pinMemory, storedId, now);
          return answer('Success');
        }
        const spec = specOfDeletePinParams(command.params);
        if (spec === null) return answer('Failure', 'bad params');
        this.pinMemory = revokePin(this.pinMemory, spec, this.utcOffsetMinutes);
        return answer('Success');
      }
      case 'setPin': {
        const pin = storedPinOfParams(command.params);
        if (pin === null) return answer('Failure', 'bad params');
        this.pinMemory = storePin(this.pinMemory, pin);
        return answer('Success');
      }
      default:
        return answer('Failure', 'unsupported command');
    }
  }

  /**
   * Someone types `code` on the keypad at `now`. The lock decides with the shared verifier
   * (docs/offline-pins.md) and its PIN memory; an accepted PIN opens it as a person on site would (door
   * episode, relock), announced by a `pinUsed` report instead of `lockChanged`; an erase code is reported
   * the same way but opens nothing; a refusal that locks the keypad out is reported as `pinLockout`. No
   * report ever carries the code.
   */
  enterPin(code: string, now: number): PinEntryOutcome {
    this.advance(now);
    // A lock with no PIN secret and no PIN it holds has nothing to check against, so nothing counts towards
    // a lock-out; one holding PINs the server sent checks those.
    if (this.pinSecret === null && Object.keys(this.pinMemory.stored).length === 0) {
      return { outcome: 'refused', reason: 'wrong' };
    }
    const before = this.pinMemory;
    const entry = verifyPin(this.pinSecret, code, now, this.utcOffsetMinutes, before);
    this.pinMemory = entry.memory;
    switch (entry.outcome) {
      case 'opened':
        this.openByPin(now, entry.ref);
        return { outcome: 'opened', pinRef: entry.ref };
      case 'erased':
        this.emit('pinUsed', now, { pinRef: entry.ref });
        return { outcome: 'erased', pinRef: entry.ref };
      case 'refused': {
        const wasLockedOut = before.lockedUntil !== null && before.lockedUntil > now;
        const lockedUntil = entry.memory.lockedUntil;
        if (!wasLockedOut && lockedUntil !== null && lockedUntil > now) this.emit('pinLockout', now);
        return { outcome: 'refused', reason: entry.reason };
      }
    }
  }

  private openByPin(now: number, ref: string): void {
    this.throwBoltOpen();
    // Reported even when the bolt was already open: the server expires a used once-PIN from this report.
    this.emit('pinUsed', now, { pinRef: ref });
    // Someone already in the doorway keeps their episode; otherwise the one who typed the PIN starts one.
    if (this.door === 'closed') this.scheduleEpisode(now);
  }

  /**
   * Someone unlocks the lock on site, opens the door, and closes it after `doorOpenSeconds` (10–120 s, or
   * 5.5–20 min for a forgotten door, when absent); the lock closes a few seconds after the door.
   */
  beginDoorEpisode(now: number, doorOpenSeconds?: number): void {
    this.advance(now);
    this.startEpisode(now, doorOpenSeconds);
  }

  private startEpisode(now: number, doorOpenSeconds?: number): void {
    if (this.throwBoltOpen()) this.emit('lockChanged', now);
    this.scheduleEpisode(now, doorOpenSeconds);
  }

  /** Opens the bolt if it is closed; true when it moved. */
  private throwBoltOpen(): boolean {
    if (this.lock !== 'closed') return false;
    this.lock = 'open';
    this.batteryUsedByBolt += BOLT_MOVE_COST;
    return true;
  }

  private scheduleEpisode(now: number, doorOpenSeconds?: number): void {
    this.autoRelockAt = NEVER;
    this.episode = {
      step: 'doorOpens',
      at: now + this.random.between(2_000, 10_000),
      doorOpenMs: (doorOpenSeconds ?? this.drawDoorOpenSeconds()) * 1000,
    };
  }

  private afterRemoteOpen(now: number): void {
    if (this.episode !== null) return;
    if (this.random.chance(this.behaviour.doorAfterRemoteOpenProbability)) {
      this.episode = {
        step: 'doorOpens',
        at: now + this.random.between(3_000, 15_000),
        doorOpenMs: this.drawDoorOpenSeconds() * 1000,
      };
    } else {
      this.autoRelockAt = now + AUTO_RELOCK_MS;
    }
  }

  private drawDoorOpenSeconds(): number {
    return this.random.chance(this.behaviour.forgottenDoorProbability)
      ? this.random.between(330, 1200)
      : this.random.between(10, 120);
  }

  private advance(now: number): void {
    if (!this.booted) {
      this.booted = true;
      this.emit('boot', this.startAt);
      if (this.batteryAt(this.startAt) < LOW_BATTERY_PERCENT) this.sendLowBattery(this.startAt);
    }
    // Bounded so that a huge jump of the clock cannot spin forever; every event moves its time forward.
    for (let guard = 0; guard < 100_000; guard++) {
      const [due, at] = this.earliest();
      if (at > now) break;
      this.lastAt = Math.max(this.lastAt, at);
      this.apply(due, at);
    }
    this.lastAt = Math.max(this.lastAt, now);
  }

  private earliest(): [Due, number] {
    let due: Due = 'heartbeat';
    let at = this.nextHeartbeatAt;
    const consider = (candidate: Due, candidateAt: number): void => {
      if (candidateAt < at) {
        due = candidate;
        at = candidateAt;
      }
    };
    consider('episodeStep', this.episode?.at ?? NEVER);
    consider('doorTimeout', this.doorTimeoutAt);
    consider('autoRelock', this.autoRelockAt);
    consider('episodeStart', this.nextEpisodeAt);
    consider('damage', this.damageAt);
    consider('offline', this.offlineAt);
    consider('lowBattery', this.lowBatterySent ? NEVER : this.lowBatteryAt());
    return [due, at];
  }

  private apply(due: Due, at: number): void {
    switch (due) {
      case 'heartbeat':
        this.emit('heartbeat', at);
        this.nextHeartbeatAt = at + this.jitteredHeartbeatMs();
        return;
      case 'episodeStart':
        this.nextEpisodeAt = at + this.random.exponential(this.behaviour.doorEpisodeMeanSeconds * 1000);
        if (this.episode === null && this.lock === 'closed' && !this.damaged) this.startEpisode(at);
        return;
      case 'episodeStep':
        this.stepEpisode(at);
        return;
      case 'doorTimeout':
        this.doorTimeoutAt = NEVER;
        this.timedOut = true;
        this.emit('status', at);
        return;
      case 'autoRelock':
        this.autoRelockAt = NEVER;
        if (this.lock === 'open' && this.door === 'closed') {
          this.lock = 'closed';
          this.batteryUsedByBolt += BOLT_MOVE_COST;
          this.emit('lockChanged', at);
        }
        return;
      case 'damage':
        this.damaged = !this.damaged;
        if (this.damaged) {
          this.damageAt = at + this.random.between(10, 60) * 60_000;
          this.emit('damage', at);
        } else {
          this.damageAt = at + this.random.exponential(this.behaviour.damageMeanSeconds * 1000);
          this.emit('status', at);
        }
        return;
      case 'offline':
        if (this.online) {
          this.online = false;
          this.offlineAt = at + this.random.between(2, 5) * this.heartbeatMs();
        } else {
          this.online = true;
          this.offlineAt = at + this.random.exponential(this.behaviour.offlineMeanSeconds * 1000);
          if (this.heldPinReports.length > 0) {
            this.pending.push(...this.heldPinReports);
            this.heldPinReports = [];
          }
          this.emit('heartbeat', at);
          this.nextHeartbeatAt = at + this.jitteredHeartbeatMs();
        }
        return;
      case 'lowBattery':
        this.sendLowBattery(at);
        return;
    }
  }

  private stepEpisode(at: number): void {
    const episode = this.episode;
    if (episode === null) return;
    switch (episode.step) {
      case 'doorOpens':
        this.door = 'open';
        this.emit('doorChanged', at);
        this.doorTimeoutAt = at + DOOR_OPEN_LIMIT_MS;
        this.episode = { ...episode, step: 'doorCloses', at: at + episode.doorOpenMs };
        return;
      case 'doorCloses':
        this.door = 'closed';
        this.timedOut = false;
        this.doorTimeoutAt = NEVER;
        this.emit('doorChanged', at);
        this.episode = { ...episode, step: 'lockCloses', at: at + this.random.between(1_000, 5_000) };
        return;
      case 'lockCloses':
        this.episode = null;
        if (this.lock === 'open') {
          this.lock = 'closed';
          this.batteryUsedByBolt += BOLT_MOVE_COST;
          this.emit('lockChanged', at);
        }
        return;
    }
  }

  private sendLowBattery(at: number): void {
    this.lowBatterySent = true;
    this.emit('lowBattery', at);
  }

  /** When the charge falls below the low-battery threshold (1 ms past reaching it), or never. */
  private lowBatteryAt(): number {
    const drainPerMs = this.behaviour.batteryDrainPerHour / 3_600_000;
    const above = this.initialBattery - this.batteryUsedByBolt - LOW_BATTERY_PERCENT;
    if (above < 0) return this.lastAt;
    if (drainPerMs <= 0) return NEVER;
    return this.startAt + above / drainPerMs + 1;
  }

  private batteryAt(at: number): number {
    const drained = (this.behaviour.batteryDrainPerHour * (at - this.startAt)) / 3_600_000;
    return Math.max(0, this.initialBattery - this.batteryUsedByBolt - drained);
  }

  private runStateAt(at: number): RunState {
    if (this.damaged) return 'damaged';
    if (this.timedOut) return 'timeOutNotClosed';
    if (this.batteryAt(at) < LOW_BATTERY_PERCENT) return 'lowPower';
    return 'normal';
  }

  private heartbeatMs(): number {
    return this.behaviour.heartbeatSeconds * 1000;
  }

  private jitteredHeartbeatMs(): number {
    return this.heartbeatMs() * this.random.between(0.9, 1.1);
  }

  private emit(event: ReportEvent, at: number, props?: ExtensionProps): void {
    const pinEvent = event === 'pinUsed' || event === 'pinLockout';
    // An offline lock sends nothing and keeps nothing but its PIN reports (each use must reach the server):
    // the next report after it returns carries its state.
    if (!this.online && !pinEvent) return;
    const report: ReportToSend = {
      messageId: this.nextMessageId(),
      reportedAt: Math.round(at),
      event,
      lock: this.lock,
      door: this.door,
      battery: Math.floor(this.batteryAt(at)),
      rssi: this.rssiBase + this.random.int(-3, 3),
      runState: this.runStateAt(at),
    };
    // Set only when present, so that the reports of a busy fleet keep one shape.
    if (props !== undefined) report.props = props;
    (this.online ? this.pending : this.heldPinReports).push(report);
  }

  private nextMessageId(): string {
    this.counter += 1;
    return `${this.idStem}-${messageCounter(this.counter)}`;
  }
}

/**
 * A message counter as a lock writes it: ten digits, zero-padded, so that ids sort in sending order (what
 * docs/device-protocol.md recommends: the history's (device, message id) index then grows at one end).
 */
export function messageCounter(n: number): string {
  return String(n).padStart(10, '0');
}

/**
 * `{prefix}-{code}` restricted to the characters a message id may hold, short enough to leave room for a
 * counter within the 64-character limit.
 */
export function messageIdStem(prefix: string, code: string): string {
  const safe = `${prefix}-${code}`.replace(/[^A-Za-z0-9._:-]/g, '_');
  return safe.slice(0, MESSAGE_ID_MAX - 11);
}
