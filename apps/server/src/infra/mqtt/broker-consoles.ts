/**
 * The browsers connected to the embedded broker, by session, and how they are looked at again when the
 * server says their sessions changed (a role lost `monitor.read`, the user was disabled, the session ended):
 * the server is asked who each session is now, and its connections take the answer at once — fewer kinds,
 * more kinds, or closed. No I/O: the broker process supplies the asking, applying and closing.
 */
import type { ConsoleScope } from './broker-ipc.ts';
import type { BrokerIdentity, ConsoleIdentity } from './topic-acl.ts';

interface ConsoleConnection {
  session: string;
  username: string;
  stationId: string;
}

export interface ConsoleConnectionsDeps<C> {
  /** Asks the server who the session is now; the answer comes to `answer(id, …)`. */
  ask(id: number, session: string, username: string): void;
  /** The connection reads what the identity allows from now on. */
  apply(client: C, identity: ConsoleIdentity): void;
  /** The connection may read nothing more: it is closed (and signs in again if it can). */
  close(client: C): void;
  /** An unanswered recheck closes the session's connections after this time. */
  timeoutMs: number;
}

export class ConsoleConnections<C> {
  private readonly sessions = new Map<string, Set<C>>();
  private readonly connections = new Map<C, ConsoleConnection>();
  /** The latest recheck asked per session: only its answer counts. */
  private readonly latest = new Map<string, number>();
  private readonly waiting = new Map<number, { session: string; timer: NodeJS.Timeout }>();
  private nextId = 1;

  constructor(private readonly deps: ConsoleConnectionsDeps<C>) {}

  get size(): number {
    return this.connections.size;
  }

  add(client: C, identity: ConsoleIdentity, username: string): void {
    this.remove(client);
    this.connections.set(client, { session: identity.session, username, stationId: identity.stationId });
    let clients = this.sessions.get(identity.session);
    if (!clients) {
      clients = new Set();
      this.sessions.set(identity.session, clients);
    }
    clients.add(client);
  }

  remove(client: C): void {
    const connection = this.connections.get(client);
    if (!connection) return;
    this.connections.delete(client);
    const clients = this.sessions.get(connection.session);
    clients?.delete(client);
    if (clients?.size === 0) this.sessions.delete(connection.session);
  }

  /** Rechecks every connected session the scope covers. */
  refresh(scope: ConsoleScope): void {
    for (const [session, clients] of this.sessions) {
      if (scope.session !== undefined && session !== scope.session) continue;
      const first = clients.values().next().value;
      const connection = first === undefined ? undefined : this.connections.get(first);
      if (!connection) continue;
      if (scope.username !== undefined && connection.username !== scope.username) continue;
      this.recheck(session);
    }
  }

  /** Asks who the session is now; a recheck asked later supersedes this one. */
  recheck(session: string): void {
    const clients = this.sessions.get(session);
    const first = clients?.values().next().value;
    const connection = first === undefined ? undefined : this.connections.get(first);
    if (!connection) return;
    const id = this.nextId++;
    this.latest.set(session, id);
    const timer = setTimeout(() => this.answer(id, null, true), this.deps.timeoutMs);
    this.waiting.set(id, { session, timer });
    this.deps.ask(id, session, connection.username);
  }

  /** The server's answer to recheck `id`: applied to the session's connections unless superseded. */
  answer(id: number, identity: BrokerIdentity | null, error = false): void {
    const asked = this.waiting.get(id);
    if (!asked) return;
    this.waiting.delete(id);
    clearTimeout(asked.timer);
    if (this.latest.get(asked.session) !== id) return;
    this.latest.delete(asked.session);
    for (const client of [...(this.sessions.get(asked.session) ?? [])]) {
      const connection = this.connections.get(client);
      if (
        !error &&
        identity?.kind === 'console' &&
        identity.session === asked.session &&
        identity.stationId === connection?.stationId
      ) {
        this.deps.apply(client, identity);
      } else {
        this.remove(client);
        this.deps.close(client);
      }
    }
  }

  /** Forgets everything (the broker stops). */
  clear(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.latest.clear();
    this.sessions.clear();
    this.connections.clear();
  }
}
