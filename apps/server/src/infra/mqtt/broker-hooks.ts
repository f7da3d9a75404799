import type { AedesOptions, PublishPacket, Subscription } from 'aedes';
import { sameSecret } from '../../lib/same-secret.ts';
import { type AuthGateway, userKeyOf } from './broker-auth-gateway.ts';
import { authError, type BrokerClients } from './broker-clients.ts';
import type { BrokerConfigMessage } from './broker-ipc.ts';
import type { PublishAdmission } from './publish-admission.ts';
import { canPublish, canReceive, canSubscribe, mayConnectOver } from './topic-acl.ts';

type BrokerHooks = Required<
  Pick<AedesOptions, 'authenticate' | 'authorizePublish' | 'authorizeSubscribe' | 'authorizeForward'>
>;

/**
 * Who may connect, publish, subscribe and receive: the server's own account by its password, everyone
 * else as the server answers (the gateway), each message checked against the connection's current identity.
 */
export function brokerHooks(
  config: Pick<BrokerConfigMessage, 'internalUsername' | 'internalPassword'>,
  gateway: AuthGateway,
  clients: BrokerClients,
  /** Paces device publishes; read at each publish (it exists once the broker does). */
  admission: () => PublishAdmission | null,
): BrokerHooks {
  return {
    authenticate(client, username, password, done) {
      const transport = clients.transports.get(client) ?? 'tcp';
      const secret = password === undefined ? undefined : password.toString('utf8');
      const userKey = userKeyOf(username);

      if (username !== undefined && sameSecret(username, config.internalUsername)) {
        if (secret !== undefined && sameSecret(secret, config.internalPassword)) {
          clients.admit(client, { kind: 'internal' }, userKey, done);
        } else {
          done(authError('bad username or password', 4), false);
        }
        return;
      }
      gateway.resolve(client.id, username, secret, transport).then((outcome) => {
        if (outcome.status === 'ok' && mayConnectOver(outcome.identity, transport)) {
          clients.admit(client, outcome.identity, userKey, done, username ?? '');
          // The session changed while the server was deciding: ask again about this connection.
          if (outcome.stale && outcome.identity.kind === 'console')
            clients.consoles.recheck(outcome.identity.session);
        } else if (outcome.status === 'unavailable') done(authError('server unavailable', 3), false);
        else done(authError('bad username or password', 4), false);
      });
    },

    authorizePublish(client, packet: PublishPacket, callback) {
      const principal = client ? clients.principalOf(client) : undefined;
      if (principal && canPublish(principal, packet.topic)) {
        const pacing = admission();
        // The server's own messages (commands, console events) never wait behind the devices' reports.
        if (client === null || principal.kind === 'internal' || pacing === null) {
          callback(null);
          return;
        }
        const { waitingOf } = clients;
        waitingOf.set(client, (waitingOf.get(client) ?? 0) + 1);
        pacing.admit(() => {
          waitingOf.set(client, (waitingOf.get(client) ?? 1) - 1);
          callback(null);
        });
        return;
      }
      // MQTT 3.1.1 has no negative PUBACK: aedes closes the connection (MQTT-3.3.5-2).
      callback(new Error(`publishing to ${packet.topic} is not allowed`));
    },

    authorizeSubscribe(client, subscription: Subscription, callback) {
      const principal = clients.principalOf(client);
      const allowed =
        principal !== undefined && canSubscribe(principal, subscription.topic, subscription.qos);
      // null = refused: SUBACK carries the failure code 0x80 and the connection stays open.
      callback(null, allowed ? subscription : null);
    },

    // Per message and per connection, with the connection's current identity: a console receives only
    // the kinds it reads now, whatever it subscribed to.
    authorizeForward(client, packet) {
      const principal = clients.principalOf(client);
      return principal && canReceive(principal, packet.topic) ? packet : null;
    },
  };
}
