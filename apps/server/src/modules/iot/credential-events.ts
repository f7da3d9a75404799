/**
 * Where a device's new or withdrawn credential must take effect at once (docs/architecture.md, domain
 * events): a lock whose secret was replaced or withdrawn authenticates again. Each returns the
 * unsubscription.
 */
import { type EventBus, unsubscribeAll } from '../../infra/events/event-bus.ts';
import type { MosquittoDynsecAccess } from '../../infra/mqtt/dynsec.ts';
import type { EmbeddedBroker } from '../../infra/mqtt/embedded-broker.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import type { TcpDirectListener } from './adapters/tcp-direct.ts';
import './events.ts';

/** Its connections to the embedded broker and to TcpDirect are closed. */
export function dropConnectionsOnCredentialChange(
  events: EventBus,
  listeners: { broker: EmbeddedBroker | null; tcpDirect: Pick<TcpDirectListener, 'disconnect'> },
): () => void {
  const stops = [
    events.subscribe('credential.changed', 'tcp-direct', ({ code }) => listeners.tcpDirect.disconnect(code)),
  ];
  const { broker } = listeners;
  if (broker) stops.push(events.subscribe('credential.changed', 'broker', ({ code }) => broker.revoke(code)));
  return unsubscribeAll(stops);
}

/** With an external Mosquitto, its account in the dynamic security plugin follows. */
export function keepDynsecAccounts(
  events: EventBus,
  access: MosquittoDynsecAccess,
  logger: ModuleLogger,
): () => void {
  return events.subscribe('credential.changed', 'dynsec', ({ code, stationId, secret }) => {
    const change = secret ? access.grant({ code, stationId, secret }) : access.revoke(code);
    change.catch((error: unknown) =>
      logger.error({ code, error: errorMessage(error) }, 'device account not updated on the broker'),
    );
  });
}
