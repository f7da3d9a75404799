import {
  HEART_CHECK,
  type SocketAuthMessage,
  socketServerMessage,
  type UserNotification,
} from '@uiot/contracts';
import type { Scheduler } from './scheduler.ts';

/** What a socket reports; events come only after `OpenSocket` returned. */
export interface SocketEvents {
  opened(): void;
  message(text: string): void;
  /** Closed or failed; reported once or twice (an error is followed by a close). */
  dropped(): void;
}

export interface SocketTransport {
  send(text: string): void;
  close(): void;
}

export type OpenSocket = (url: string, events: SocketEvents) => SocketTransport;

export interface NotificationSocketOptions {
  url: string;
  token: string;
  heartbeatMs: number;
  reconnectMs: number;
  scheduler: Scheduler;
  open: OpenSocket;
  onNotification(notification: UserNotification): void;
}

/** The text of a message the server sent, or null for a heartbeat answer and what is not understood. */
export function parseNotification(text: string): UserNotification | null {
  if (text === HEART_CHECK) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = socketServerMessage.safeParse(body);
  return parsed.success && parsed.data.type === 'notification' ? parsed.data.notification : null;
}

/**
 * The per-user notification socket `/websocket` (ARCHITECTURE §5, spec §4 Realtime): authenticates with its
 * first message, sends 'heartCheck' every heartbeat period while open, and reconnects a fixed time after a
 * close or an error until stopped.
 */
export class NotificationSocket {
  private transport: SocketTransport | null = null;
  private heartbeat: unknown = null;
  private reconnect: unknown = null;

  constructor(private readonly options: NotificationSocketOptions) {}

  start(): void {
    this.stop();
    this.connect();
  }

  stop(): void {
    this.clearTimers();
    const transport = this.transport;
    this.transport = null;
    transport?.close();
  }

  private connect(): void {
    this.reconnect = null;
    const transport = this.options.open(this.options.url, {
      opened: () => {
        if (transport !== this.transport) return;
        const auth: SocketAuthMessage = { type: 'auth', token: this.options.token };
        transport.send(JSON.stringify(auth));
        this.beat(transport);
      },
      message: (text) => {
        if (transport !== this.transport) return;
        const notification = parseNotification(text);
        if (notification) this.options.onNotification(notification);
      },
      dropped: () => {
        if (transport !== this.transport) return;
        this.transport = null;
        this.clearTimers();
        transport.close();
        this.reconnect = this.options.scheduler.setTimeout(() => this.connect(), this.options.reconnectMs);
      },
    });
    this.transport = transport;
  }

  private beat(transport: SocketTransport): void {
    this.heartbeat = this.options.scheduler.setTimeout(() => {
      if (transport !== this.transport) return;
      transport.send(HEART_CHECK);
      this.beat(transport);
    }, this.options.heartbeatMs);
  }

  private clearTimers(): void {
    const { scheduler } = this.options;
    if (this.heartbeat !== null) scheduler.clearTimeout(this.heartbeat);
    if (this.reconnect !== null) scheduler.clearTimeout(this.reconnect);
    this.heartbeat = null;
    this.reconnect = null;
  }
}

/** `OpenSocket` over the browser's WebSocket. */
export const openWebSocket: OpenSocket = (url, events) => {
  const socket = new WebSocket(url);
  socket.onopen = () => events.opened();
  socket.onmessage = (event) => {
    if (typeof event.data === 'string') events.message(event.data);
  };
  socket.onerror = () => events.dropped();
  socket.onclose = () => events.dropped();
  return {
    send: (text) => socket.send(text),
    close: () => socket.close(),
  };
};
