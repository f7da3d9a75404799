import { mayReceiveNotification, type SocketServerMessage, type UserNotification } from '@uiot/contracts';
import { errorMessage, LogThrottle, type ModuleLogger } from '../../lib/module-logger.ts';
import type { HubMessage, NotificationChannel } from './notification-channel.ts';

/** What the hub needs of an authenticated `/websocket` connection. */
export interface NotificationPeer {
  readonly staffId: string;
  readonly tokenHash: string;
  send(message: SocketServerMessage): void;
  /** Ends the connection because its session no longer stands. */
  sessionEnded(): void;
  /** Ends the connection because its user opened too many. */
  displaced(): void;
}

export interface NotificationHubOptions {
  channel: NotificationChannel;
  /** Whether the session behind a token hash still stands (read without touching it). */
  sessionStands: (tokenHash: string) => Promise<boolean>;
  /**
   * The permission keys of the session behind a token hash now (read without touching it), or null when it
   * no longer stands: a notification goes only to the sessions whose keys read its kind.
   */
  permissionsOf: (tokenHash: string) => Promise<ReadonlySet<string> | null>;
  logger: ModuleLogger;
  /** Most connections one user keeps; opening one more ends the oldest (default 16). */
  maxPeersPerUser?: number;
  now?: () => Date;
}

/**
 * Per-user notifications (ARCHITECTURE §5 `/websocket`): delivers to every connection of a user, on
 * whichever server instance it is, through the channel every instance listens on, if that connection's
 * session holds the permission of the notification's kind at that moment (USER_NOTIFICATION_PERMISSIONS).
 * Ended sessions close their connections: on this instance at once, on the others through the same channel.
 */
export class NotificationHub {
  private readonly peers = new Map<string, Set<NotificationPeer>>();
  private readonly channel: NotificationChannel;
  private readonly maxPeersPerUser: number;
  private readonly now: () => Date;
  private readonly failureLog = new LogThrottle();
  /** Each connection's deliveries, one after the other (permission checks must not reorder them). */
  private readonly deliveries = new WeakMap<NotificationPeer, Promise<void>>();

  constructor(private readonly options: NotificationHubOptions) {
    this.channel = options.channel;
    this.maxPeersPerUser = Math.max(1, options.maxPeersPerUser ?? 16);
    this.now = options.now ?? (() => new Date());
    this.channel.receive((message) => this.received(message));
  }

  /** Connections held on this instance. */
  get size(): number {
    let n = 0;
    for (const set of this.peers.values()) n += set.size;
    return n;
  }

  add(peer: NotificationPeer): void {
    let set = this.peers.get(peer.staffId);
    if (!set) {
      set = new Set();
      this.peers.set(peer.staffId, set);
    }
    set.add(peer);
    if (set.size > this.maxPeersPerUser) {
      const oldest = set.values().next().value;
      if (oldest) {
        set.delete(oldest);
        oldest.displaced();
      }
    }
  }

  remove(peer: NotificationPeer): void {
    const set = this.peers.get(peer.staffId);
    if (!set) return;
    set.delete(peer);
    if (set.size === 0) this.peers.delete(peer.staffId);
  }

  /** Sends a notification to every connection of the user, on every instance. Never throws. */
  async notify(staffId: string, notification: UserNotification): Promise<void> {
    await this.broadcast({ type: 'notify', staffId, time: this.now().toISOString(), notification });
  }

  /** Some sessions of the user ended (sign-out, disable, password change): their connections close. */
  async sessionsEnded(staffId: string): Promise<void> {
    await this.broadcast({ type: 'sessionsEnded', staffId });
  }

  /** Whether the peer's session still stands; closes the peer when it does not. */
  async recheck(peer: NotificationPeer): Promise<boolean> {
    let stands: boolean;
    try {
      stands = await this.options.sessionStands(peer.tokenHash);
    } catch (error) {
      // The database being away says nothing about the session: look again at the next heartbeat.
      this.failed('session check failed', error);
      return true;
    }
    if (!stands) {
      this.remove(peer);
      peer.sessionEnded();
    }
    return stands;
  }

  /** Stops listening to the other instances (shutdown, once the connections are closed). */
  async close(): Promise<void> {
    this.peers.clear();
    await this.channel.close();
  }

  private async broadcast(message: HubMessage): Promise<void> {
    try {
      await this.channel.send(message);
    } catch (error) {
      this.failed('notification not sent', error);
    }
  }

  private received(message: HubMessage): void {
    const set = this.peers.get(message.staffId);
    if (!set) return;
    if (message.type === 'notify') {
      const out: SocketServerMessage = {
        type: 'notification',
        time: message.time,
        notification: message.notification,
      };
      for (const peer of set) this.deliver(peer, out);
      return;
    }
    for (const peer of [...set]) void this.recheck(peer);
  }

  private deliver(peer: NotificationPeer, out: Extract<SocketServerMessage, { type: 'notification' }>): void {
    const previous = this.deliveries.get(peer) ?? Promise.resolve();
    const next = previous.then(async () => {
      let permissions: ReadonlySet<string> | null;
      try {
        permissions = await this.options.permissionsOf(peer.tokenHash);
      } catch (error) {
        // Not knowing the permissions is not holding them: the notification is not sent.
        this.failed('notification permission check failed', error);
        return;
      }
      if (permissions && mayReceiveNotification(permissions, out.notification)) peer.send(out);
    });
    this.deliveries.set(peer, next);
  }

  private failed(what: string, error: unknown): void {
    if (this.failureLog.allows()) this.options.logger.warn({ error: errorMessage(error) }, what);
  }
}
