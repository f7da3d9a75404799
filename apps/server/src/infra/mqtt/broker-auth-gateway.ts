/**
 * Authentication in the broker child: the internal client is checked locally, everyone else is asked of
 * the server over IPC, with answers cached (bounded, for a short time), concurrent asks for the same
 * credentials joined, and a bound and a timeout on what waits for the server.
 */
import { createHash } from 'node:crypto';
import { log, send } from './broker-child-ipc.ts';
import type { BrokerConfigMessage, BrokerTransport, ConsoleScope } from './broker-ipc.ts';
import { type BrokerIdentity, parseBrokerIdentity } from './topic-acl.ts';

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export type AuthOutcome =
  /** `stale`: consoles were refreshed while the server was deciding; the answer may predate the change. */
  | { status: 'ok'; identity: BrokerIdentity; stale?: boolean }
  | { status: 'denied' }
  | { status: 'unavailable' };

interface CacheEntry {
  expires: number;
  identity: BrokerIdentity | null;
  userKey: string;
}

interface PendingAuth {
  resolve: (outcome: AuthOutcome) => void;
  timer: NodeJS.Timeout;
}

export class AuthGateway {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inflight = new Map<string, Promise<AuthOutcome>>();
  private readonly pending = new Map<number, PendingAuth>();
  private nextId = 1;
  /** Rises with every refresh of consoles: answers asked for before are not kept. */
  private generation = 0;

  constructor(private readonly config: BrokerConfigMessage) {}

  resolve(
    clientId: string,
    username: string | undefined,
    password: string | undefined,
    transport: BrokerTransport,
  ): Promise<AuthOutcome> {
    const key = sha256(JSON.stringify([transport, clientId, username ?? null, password ?? null])).toString(
      'hex',
    );
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached) {
      if (cached.expires > now) {
        return Promise.resolve(
          cached.identity ? { status: 'ok', identity: cached.identity } : { status: 'denied' },
        );
      }
      this.cache.delete(key);
    }
    const running = this.inflight.get(key);
    if (running) return running;
    if (this.pending.size >= this.config.maxPendingAuth) {
      log('warn', 'too many authentications waiting for the server; connection refused', {
        pending: this.pending.size,
      });
      return Promise.resolve({ status: 'unavailable' });
    }

    const id = this.nextId++;
    const generation = this.generation;
    const promise = new Promise<AuthOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        log('warn', 'the server did not answer an authentication in time; connection refused', {
          clientId,
          timeoutMs: this.config.authTimeoutMs,
        });
        resolve({ status: 'unavailable' });
      }, this.config.authTimeoutMs);
      this.pending.set(id, { resolve, timer });
    }).then((outcome): AuthOutcome => {
      if (this.inflight.get(key) === promise) this.inflight.delete(key);
      if (generation !== this.generation) {
        return outcome.status === 'ok' ? { ...outcome, stale: true } : outcome;
      }
      if (outcome.status !== 'unavailable') {
        this.remember(key, outcome.status === 'ok' ? outcome.identity : null, userKeyOf(username));
      }
      return outcome;
    });
    this.inflight.set(key, promise);
    send({
      type: 'auth',
      id,
      clientId,
      transport,
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
    });
    return promise;
  }

  answer(id: number, ok: boolean, identity: unknown, error: boolean | undefined): void {
    const waiting = this.pending.get(id);
    if (!waiting) return; // answered after the timeout
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if (error) {
      waiting.resolve({ status: 'unavailable' });
      return;
    }
    const parsed = ok ? parseBrokerIdentity(identity) : null;
    if (ok && !parsed) log('error', 'the server returned an invalid broker identity; connection refused');
    waiting.resolve(parsed ? { status: 'ok', identity: parsed } : { status: 'denied' });
  }

  forgetUser(userKey: string): void {
    for (const [key, entry] of this.cache) {
      if (entry.userKey === userKey) this.cache.delete(key);
    }
  }

  /** Forgets the answers about consoles of the scope; answers on their way are not kept. */
  forgetConsoles(scope: ConsoleScope): void {
    this.generation++;
    this.inflight.clear();
    const userKey = scope.username === undefined ? undefined : userKeyOf(scope.username);
    for (const [key, entry] of this.cache) {
      if (entry.identity?.kind !== 'console') continue;
      if (userKey !== undefined && entry.userKey !== userKey) continue;
      if (scope.session !== undefined && entry.identity.session !== scope.session) continue;
      this.cache.delete(key);
    }
  }

  clear(): void {
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.resolve({ status: 'unavailable' });
    }
    this.pending.clear();
    this.cache.clear();
  }

  private remember(key: string, identity: BrokerIdentity | null, userKey: string): void {
    if (this.config.authCacheTtlMs <= 0 || this.config.authCacheSize <= 0) return;
    while (this.cache.size >= this.config.authCacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    this.cache.set(key, { expires: Date.now() + this.config.authCacheTtlMs, identity, userKey });
  }
}

export function userKeyOf(username: string | undefined): string {
  return sha256(`user:${username ?? ''}`).toString('hex');
}
