import type { AuthenticateError, Client } from 'aedes';
import { send } from './broker-child-ipc.ts';
import { ConsoleConnections } from './broker-consoles.ts';
import type { BrokerConfigMessage, BrokerTransport } from './broker-ipc.ts';
import type { BrokerPrincipal } from './topic-acl.ts';

export function authError(message: string, returnCode: 2 | 3 | 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

export type AuthDone = (error: AuthenticateError | null, success: boolean | null) => void;

interface ClientRecord {
  /** Replaced when a console's session changes (the kinds it reads). */
  principal: BrokerPrincipal;
  /** Who may take over this client id: the same principal, from the same username. */
  ownerKey: string;
  userKey: string;
}

/**
 * The broker's connections and who holds each: the identity admitted, the transport it came over, the
 * publishes it waits on, and which connection holds each client id.
 */
export class BrokerClients {
  private readonly records = new WeakMap<Client, ClientRecord>();
  readonly transports = new WeakMap<Client, BrokerTransport>();
  /** Publishes of a connection waiting for admission: it is not read meanwhile. */
  readonly waitingOf = new WeakMap<Client, number>();
  /** client id → the client currently holding it (authenticated ones only). */
  private readonly owners = new Map<string, Client>();
  readonly consoles: ConsoleConnections<Client>;

  constructor(config: Pick<BrokerConfigMessage, 'authTimeoutMs'>) {
    this.consoles = new ConsoleConnections<Client>({
      ask: (id, session, username) => send({ type: 'recheck', id, session, username }),
      apply: (client, identity) => {
        const record = this.records.get(client);
        if (record) record.principal = identity;
      },
      close: (client) => client.close(),
      timeoutMs: config.authTimeoutMs,
    });
  }

  principalOf(client: Client): BrokerPrincipal | undefined {
    return this.records.get(client)?.principal;
  }

  admit(client: Client, principal: BrokerPrincipal, userKey: string, done: AuthDone, username = ''): void {
    // Who, not what it may read: the user's consoles of a station share a key whatever their kinds.
    const who =
      principal.kind === 'console' ? { kind: 'console', stationId: principal.stationId } : principal;
    const ownerKey = `${JSON.stringify(who)}|${userKey}`;
    const holder = this.owners.get(client.id);
    const holderRecord = holder ? this.records.get(holder) : undefined;
    if (holder && holder !== client && !holder.closed && holderRecord && holderRecord.ownerKey !== ownerKey) {
      // Refuse to let one identity take over (disconnect) a session held by another, the server's own above all.
      done(authError('client identifier in use', 2), false);
      return;
    }
    this.records.set(client, { principal, ownerKey, userKey });
    this.owners.set(client.id, client);
    if (principal.kind === 'console') this.consoles.add(client, principal, username);
    done(null, true);
  }

  release(client: Client): void {
    this.consoles.remove(client);
    if (client.id && this.owners.get(client.id) === client) this.owners.delete(client.id);
  }

  /** Closes every connection signed in with this username. */
  closeUser(userKey: string): void {
    for (const client of this.owners.values()) {
      if (this.records.get(client)?.userKey === userKey) client.close();
    }
  }
}
