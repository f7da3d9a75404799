import {
  api,
  type ConsoleEvent,
  consoleSubscription,
  REALTIME_TIMING,
  type RuntimeConfig,
} from '@uiot/contracts';
import type { SessionState } from '../auth/session.ts';
import { recordError } from '../error-log/error-log.ts';
import { toastError } from '../feedback/feedback.ts';
import { i18n } from '../i18n/i18n.ts';
import { call } from '../request/index.ts';
import { mqttBrokerUrl, notificationSocketUrl, type PageLocation } from './channel-urls.ts';
import { parseConsoleEvent } from './console-event-hub.ts';
import { MqttChannel } from './mqtt-channel.ts';
import { type BrokerCredentials, mqttConnector } from './mqtt-connector.ts';
import { NotificationSocket, openWebSocket } from './notification-socket.ts';
import { announceResubscribed, consoleEvents, realtimeStatus } from './realtime-state.ts';
import type { RealtimeStatus } from './realtime-status.ts';
import { browserScheduler } from './scheduler.ts';
import { showNotification } from './show-notification.ts';

/** Whom the channels are opened for. */
export interface ChannelIdentity {
  token: string;
  staffId: string;
  stationId: string;
}

/**
 * A signed-in user gets the live channels, unless held at the forced password change (the server would
 * refuse them anyway). The station is the one fetched at start-up, or else the user's.
 */
export function channelIdentity(
  state: Pick<SessionState, 'token' | 'user' | 'stationId'>,
): ChannelIdentity | null {
  const { token, user } = state;
  if (!token || !user || user.mustChangePassword) return null;
  return { token, staffId: user.id, stationId: state.stationId ?? user.stationId };
}

/** Spec §8 'mqtt init failed, please check the config file', shown like the other start-up failures. */
function reportMqttInitFailed(): void {
  const text = i18n.t('realtime:mqttInitFailed');
  toastError(text);
  recordError({ source: 'script', title: text, text });
}

/**
 * The broker sign-in of a session: the username comes from the server, which creates the broker account
 * where it keeps them (docs/scale-out.md); the password is the session token. A failure is not shown: the
 * connector asks again, and an ended session is handled by the request layer.
 */
function brokerCredentials(token: string): BrokerCredentials {
  return {
    token,
    login: async () => {
      const login = await call(api.realtime.getBrokerLogin, undefined, {
        noOverlay: true,
        silent: true,
        canCancel: false,
      });
      return login.username;
    },
  };
}

interface ChannelTarget {
  credentials: BrokerCredentials;
  topic: string;
  onStatus(status: RealtimeStatus): void;
  onSubscribed(): void;
  onMessage(payload: Uint8Array): void;
}

function startMqttChannel(
  target: ChannelTarget,
  config: RuntimeConfig,
  location: PageLocation,
): MqttChannel | null {
  const url = config.mqttOptions ? mqttBrokerUrl(config.mqttOptions, location) : null;
  if (!config.mqttOptions || !url) {
    reportMqttInitFailed();
    return null;
  }
  const channel = new MqttChannel({
    connect: mqttConnector(url, config.mqttOptions, target.credentials),
    topic: target.topic,
    subscribeTimeoutMs: REALTIME_TIMING.mqttSubscribeTimeoutMs,
    resubscribeMs: REALTIME_TIMING.mqttResubscribeMs,
    scheduler: browserScheduler,
    onStatus: target.onStatus,
    onSubscribed: target.onSubscribed,
    onMessage: target.onMessage,
    onInitFailed: reportMqttInitFailed,
  });
  channel.start();
  return channel;
}

/**
 * A control-room board's channel (docs/alarms.md): it signs in to the broker with its display token and the
 * username the server gives that session, and reads one topic (its station's alarms). Returns its closing.
 */
export function startDisplayChannel(
  display: {
    token: string;
    topic: string;
    /** The display session's broker username, asked of the server before each sign-in. */
    login(): Promise<string>;
    onStatus(status: RealtimeStatus): void;
    onSubscribed(): void;
    onEvent(event: ConsoleEvent): void;
  },
  config: RuntimeConfig,
  location: PageLocation,
): () => void {
  const channel = startMqttChannel(
    {
      credentials: { token: display.token, login: display.login },
      topic: display.topic,
      onStatus: display.onStatus,
      onSubscribed: display.onSubscribed,
      onMessage: (payload) => {
        const event = parseConsoleEvent(payload);
        if (event) display.onEvent(event);
      },
    },
    config,
    location,
  );
  return () => channel?.stop();
}

/** Opens the MQTT channel and the notification socket for a signed-in user; returns their closing. */
export function startLiveChannels(
  identity: ChannelIdentity,
  config: RuntimeConfig,
  location: PageLocation,
): () => void {
  const notifications = new NotificationSocket({
    url: notificationSocketUrl(location),
    token: identity.token,
    heartbeatMs: REALTIME_TIMING.socketHeartbeatMs,
    reconnectMs: REALTIME_TIMING.socketReconnectMs,
    scheduler: browserScheduler,
    open: openWebSocket,
    onNotification: showNotification,
  });
  notifications.start();
  const channel = startMqttChannel(
    {
      credentials: brokerCredentials(identity.token),
      topic: consoleSubscription(identity.stationId),
      onStatus: (status) => realtimeStatus.set(status),
      onSubscribed: announceResubscribed,
      onMessage: (payload) => consoleEvents.dispatch(payload),
    },
    config,
    location,
  );
  return () => {
    notifications.stop();
    channel?.stop();
  };
}
