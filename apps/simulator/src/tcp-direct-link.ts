/**
 * A lock on TcpDirect: its own TCP connection, an auth frame first, then report frames; command frames are
 * answered with result frames. The server confirms each stored message with a `received` frame; like the
 * real lock, the simulator keeps every unconfirmed report and result and sends them again after a
 * reconnect (ingest is idempotent on the message id), so a server restart loses nothing.
 */
import { Socket } from 'node:net';
import {
  decodeTcpServerMessage,
  encodeTcpAuth,
  encodeTcpReport,
  encodeTcpResult,
  FrameDecoder,
  MAX_TCP_FRAME_BYTES,
} from '@uiot/device-protocol';
import type { Connection, DeviceLink, DeviceSession, SendCallback } from './device-link.ts';
import type { ReportToSend } from './lock-model.ts';

export const TCP_RECONNECT_MS = 1000;
/** How long the server may take to answer the auth frame. */
export const TCP_AUTH_TIMEOUT_MS = 10_000;
/** Unconfirmed messages a lock keeps; past it a new report fails at once. */
export const MAX_UNCONFIRMED = 10_000;

interface Unconfirmed {
  frame: Buffer;
  done: SendCallback | null;
}

const noop = (): void => {};

export class TcpDirectLink implements DeviceLink, Connection {
  private socket: Socket | null = null;
  private authenticated = false;
  private closing = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private authTimer: NodeJS.Timeout | null = null;
  /** By message id, in sending order: resent in that order after a reconnect. */
  private unconfirmed = new Map<string, Unconfirmed>();
  private settled: (() => void) | null = null;
  private readonly where: string;

  constructor(
    private readonly session: DeviceSession,
    private readonly address: { host: string; port: number },
  ) {
    this.where = `tcp://${address.host}:${address.port}`;
  }

  open(settled: () => void): void {
    this.settled = settled;
    this.connect();
  }

  /** `done` runs when the server confirms the report (`received`). */
  send(report: ReportToSend, done: SendCallback): void {
    if (this.unconfirmed.size >= MAX_UNCONFIRMED) {
      done(new Error(`more than ${MAX_UNCONFIRMED} TcpDirect messages unconfirmed`));
      return;
    }
    this.keepAndWrite(report.messageId, encodeTcpReport(report), done);
  }

  close(): Promise<void> {
    this.closing = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.clearAuthTimer();
    const abandoned = [...this.unconfirmed.values()];
    this.unconfirmed.clear();
    for (const message of abandoned) message.done?.(new Error('the simulator stopped'));
    const socket = this.socket;
    if (socket === null || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
      // A server that does not close its side is not waited for.
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  }

  private keepAndWrite(id: string, frame: Buffer, done: SendCallback | null): void {
    this.unconfirmed.set(id, { frame, done });
    // A write that fails with the connection is sent again after the next authentication.
    if (this.authenticated && this.socket !== null) this.socket.write(frame, noop);
  }

  private connect(): void {
    this.reconnectTimer = null;
    if (this.closing) return;
    const { stationId, code, secret } = this.session.device;
    const decoder = new FrameDecoder(MAX_TCP_FRAME_BYTES);
    const socket = new Socket();
    this.socket = socket;
    let failure: Error | null = null;
    socket.setKeepAlive(true, 30_000);
    socket.on('connect', () => {
      socket.write(encodeTcpAuth(stationId, code, secret ?? ''));
      this.authTimer = setTimeout(() => {
        failure = new Error(`no authResult within ${TCP_AUTH_TIMEOUT_MS} ms`);
        socket.destroy();
      }, TCP_AUTH_TIMEOUT_MS);
    });
    socket.on('data', (chunk) => {
      for (const frame of decoder.push(chunk)) {
        if (!frame.ok) {
          this.session.warn({ reason: frame.reason, detail: frame.detail }, 'bad frame from the server');
          failure = new Error(`bad frame from the server: ${frame.detail}`);
          socket.destroy();
          return;
        }
        const decoded = decodeTcpServerMessage(frame.value);
        if (!decoded.ok) {
          this.session.warn({ reason: decoded.reason, detail: decoded.detail }, 'refused a server message');
          continue;
        }
        const message = decoded.value;
        switch (message.type) {
          case 'authResult':
            this.clearAuthTimer();
            if (!message.ok) {
              failure = new Error('the server refused its credentials');
              socket.destroy();
              return;
            }
            this.onAuthenticated(socket);
            break;
          case 'received': {
            const confirmed = this.unconfirmed.get(message.id);
            if (confirmed === undefined) break;
            this.unconfirmed.delete(message.id);
            confirmed.done?.();
            break;
          }
          case 'command': {
            if (!this.authenticated) break;
            const answer = this.session.command(message.command);
            if (answer === null) break;
            this.keepAndWrite(answer.messageId, encodeTcpResult(answer), null);
            this.session.resultSent();
            break;
          }
        }
      }
    });
    socket.on('error', (error) => {
      failure ??= error;
    });
    socket.on('close', () => {
      this.clearAuthTimer();
      if (this.socket === socket) this.socket = null;
      if (this.authenticated) {
        this.authenticated = false;
        this.session.down();
      } else if (!this.closing) {
        this.session.connectFailed(
          failure ?? new Error('the server closed the connection before authenticating it'),
          this.where,
        );
        this.settle();
      }
      if (!this.closing) this.reconnectTimer = setTimeout(() => this.connect(), TCP_RECONNECT_MS);
    });
    socket.connect(this.address.port, this.address.host);
  }

  private onAuthenticated(socket: Socket): void {
    this.authenticated = true;
    for (const { frame } of this.unconfirmed.values()) socket.write(frame, noop);
    this.session.up();
    this.settle();
  }

  private clearAuthTimer(): void {
    if (this.authTimer !== null) clearTimeout(this.authTimer);
    this.authTimer = null;
  }

  private settle(): void {
    const settled = this.settled;
    this.settled = null;
    settled?.();
  }
}
