/** Messages between the server (parent) and the embedded broker child process, over the fork IPC channel. */
import type { BrokerIdentity } from './topic-acl.ts';

export type BrokerTransport = 'tcp' | 'ws';
export type BrokerPortVariable = 'MQTT_PORT' | 'MQTT_WS_PORT';

/** First message the parent sends: everything the child needs to start. */
export interface BrokerConfigMessage {
  type: 'config';
  /** Interface to listen on; undefined = all interfaces. */
  host?: string;
  port: number;
  wsPort: number;
  /** Certificate and key (PEM): the WebSocket listener speaks WSS. */
  tls?: { cert: string; key: string };
  internalUsername: string;
  internalPassword: string;
  maxConnections: number;
  maxPacketSize: number;
  authTimeoutMs: number;
  authCacheTtlMs: number;
  authCacheSize: number;
  maxPendingAuth: number;
}

export interface BrokerAuthResultMessage {
  type: 'authResult';
  id: number;
  ok: boolean;
  identity: BrokerIdentity | null;
  /** The server could not decide (authorize threw): deny as "server unavailable" and do not cache. */
  error?: boolean;
}

/** Forget cached decisions for this username and disconnect its clients (session revoked). */
export interface BrokerRevokeMessage {
  type: 'revoke';
  username: string;
}

/**
 * Which browsers' sessions changed (permissions, status, the session itself): `username` (staff id) for
 * one user's, `session` (token hash) for one session's, neither for every console.
 */
export interface ConsoleScope {
  username?: string;
  session?: string;
}

/** Look again at the consoles of this scope: forget their cached answers, recheck their connections. */
export interface BrokerRefreshMessage extends ConsoleScope {
  type: 'refreshConsoles';
}

/** The server's answer to a recheck: the console's identity now, or null when it may no longer read. */
export interface BrokerRecheckResultMessage {
  type: 'recheckResult';
  id: number;
  identity: BrokerIdentity | null;
  /** The server could not decide: the connections are closed (they sign in again). */
  error?: boolean;
}

export type ParentToBrokerMessage =
  | BrokerConfigMessage
  | BrokerAuthResultMessage
  | BrokerRevokeMessage
  | BrokerRefreshMessage
  | BrokerRecheckResultMessage
  | { type: 'stop' };

export interface BrokerAuthRequestMessage {
  type: 'auth';
  id: number;
  clientId: string;
  username?: string;
  password?: string;
  transport: BrokerTransport;
}

/** Who a connected console's session is now (asked after a refresh). */
export interface BrokerRecheckRequestMessage {
  type: 'recheck';
  id: number;
  session: string;
  username: string;
}

export interface BrokerErrorMessage {
  type: 'error';
  code: string;
  message: string;
  port?: number;
  which?: BrokerPortVariable;
}

export interface BrokerLogMessage {
  type: 'log';
  level: 'info' | 'warn' | 'error';
  msg: string;
  data?: Record<string, unknown>;
}

export type BrokerToParentMessage =
  | { type: 'ready'; port: number; wsPort: number }
  | BrokerErrorMessage
  | BrokerAuthRequestMessage
  | BrokerRecheckRequestMessage
  | BrokerLogMessage;
