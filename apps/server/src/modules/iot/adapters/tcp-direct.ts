import { createServer, type Server, type Socket } from 'node:net';
import {
  decodeTcpDeviceMessage,
  encodeTcpAuthResult,
  encodeTcpReceived,
  FrameDecoder,
  MAX_TCP_FRAME_BYTES,
} from '@uiot/device-protocol';
import type { AuthenticatedDevice, DeviceCredentials } from '../device-credentials.ts';
import { IngestClosedError, type IngestOutcome, type IngestPipeline } from '../ingest/ingest-pipeline.ts';

export interface TcpDirectOptions {
  host?: string;
  /** TCP_DIRECT_PORT; 0 picks a free port. */
  port: number;
  credentials: Pick<DeviceCredentials, 'authenticate'>;
  ingest: IngestPipeline;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** Time a new connection has to authenticate (default 10 s). */
  authTimeoutMs?: number;
  /** A connection silent this long is closed (default 15 min: several heartbeats). */
  idleTimeoutMs?: number;
  /** Most connections at once (default 20 000). */
  maxConnections?: number;
  now?: () => number;
}

export interface TcpDirectListener {
  /** The port it listens on once `listen` has resolved (TCP_DIRECT_PORT before). */
  readonly port: number;
  /** Connections of authenticated devices, by device code. */
  readonly connected: number;
  /** Closes the connection of this device (its credential was replaced or withdrawn). */
  disconnect(code: string): void;
  /** Writes a frame to the connected device; false when it is not connected. */
  send(code: string, frame: Buffer): boolean;
  /** Starts accepting devices; fails with a TcpDirectStartError when the port cannot be had. */
  listen(): Promise<void>;
  close(): Promise<void>;
}

/** Messages of one connection submitted and not yet committed beyond which its reading pauses. */
export const MAX_IN_FLIGHT = 1_000;
/** Receipts written and not read by the device beyond which its reading pauses until they are. */
const MAX_UNREAD_RECEIPT_BYTES = 64 * 1024;

/**
 * The least step between the receive times of two messages of one connection: two microseconds. The stored
 * time has microseconds, but a millisecond time of today as a double is a multiple of 1/4096 ms: a step of
 * one microsecond (0.98 once rounded) could round to the same stored microsecond as the one before.
 */
export const RECEIVE_TIME_STEP_MS = 0.002;

/** Why a connection is not read now; it is read again once no reason is left. */
type HoldReason = 'saturated' | 'inFlight' | 'receipts';

class ReadHolds {
  private readonly reasons = new Set<HoldReason>();

  constructor(private readonly socket: Socket) {}

  hold(reason: HoldReason): void {
    this.reasons.add(reason);
    this.socket.pause();
  }

  release(reason: HoldReason): void {
    if (!this.reasons.delete(reason) || this.reasons.size > 0) return;
    if (!this.socket.destroyed) this.socket.resume();
  }
}

export class TcpDirectStartError extends Error {
  override name = 'TcpDirectStartError';
}

/**
 * TcpDirect locks (spec §3 iotType TcpDirect): length-prefixed JSON frames. The first frame authenticates
 * with the device's code and secret; reports and command results follow, each confirmed with `received`
 * once committed. A bad frame, a refused authentication or an oversized frame closes the connection; a
 * device that connects again replaces its older connection. Reading pauses while ingest is saturated, while
 * `MAX_IN_FLIGHT` of the connection's messages wait for their commit, and while the device leaves its
 * receipts unread.
 */
export function createTcpDirect(options: TcpDirectOptions): TcpDirectListener {
  const devices = new Map<string, Socket>();
  const sockets = new Set<Socket>();
  const now = options.now ?? Date.now;
  const authTimeoutMs = options.authTimeoutMs ?? 10_000;

  const serve = (socket: Socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.setTimeout(options.idleTimeoutMs ?? 15 * 60_000, () => socket.destroy());
    socket.on('error', () => {});
    const decoder = new FrameDecoder(MAX_TCP_FRAME_BYTES);
    const reading = new ReadHolds(socket);
    let device: AuthenticatedDevice | null = null;
    let authenticating = false;
    let chain: Promise<void> = Promise.resolve();
    /** Messages submitted and not yet answered by ingest. */
    let inFlight = 0;
    /**
     * The receive time of the connection's last message. Each next one is later by `RECEIVE_TIME_STEP_MS`:
     * messages read together keep their order in the runtime data even when ingest writes them in batches
     * at once (of two updates of one device with the same time, the one committed last would win).
     */
    let lastReceivedAt = 0;
    const authTimer = setTimeout(() => {
      if (!device) socket.destroy();
    }, authTimeoutMs);
    socket.on('close', () => {
      clearTimeout(authTimer);
      sockets.delete(socket);
      if (device && devices.get(device.code) === socket) devices.delete(device.code);
    });
    // Receipts the device does not read hold its further frames back.
    socket.on('drain', () => reading.release('receipts'));

    const refuse = (reason: Parameters<IngestPipeline['refuse']>[0], detail: string) => {
      options.ingest.refuse(reason, { protocol: 'tcp', device: device?.code ?? null, detail });
      socket.destroy();
    };

    const failed = (error: unknown) => {
      if (!(error instanceof IngestClosedError)) {
        options.logger.warn({ error: String(error) }, 'TcpDirect message failed');
      }
      socket.destroy();
    };

    const answered = (messageId: string, outcome: IngestOutcome) => {
      inFlight -= 1;
      if (inFlight <= MAX_IN_FLIGHT / 2) reading.release('inFlight');
      if ((outcome === 'stored' || outcome === 'duplicate') && !socket.destroyed) {
        if (!socket.write(encodeTcpReceived(messageId)) && socket.writableLength > MAX_UNREAD_RECEIPT_BYTES) {
          reading.hold('receipts');
        }
      }
    };

    const handle = async (frame: Buffer): Promise<void> => {
      const decoded = decodeTcpDeviceMessage(frame);
      if (!decoded.ok) return refuse(decoded.reason, decoded.detail);
      const message = decoded.value;
      if (!device) {
        if (message.type !== 'auth' || authenticating)
          return refuse('unauthorized', 'first frame must be auth');
        authenticating = true;
        const found = await options.credentials.authenticate(message.code, message.secret);
        if (!found || found.stationId !== message.stationId) {
          socket.end(encodeTcpAuthResult(false));
          options.ingest.refuse('unauthorized', { protocol: 'tcp', device: message.code });
          return;
        }
        device = found;
        clearTimeout(authTimer);
        devices.get(found.code)?.destroy();
        devices.set(found.code, socket);
        socket.write(encodeTcpAuthResult(true));
        return;
      }
      if (message.type === 'auth') return refuse('invalid', 'already authenticated');
      const body = message.type === 'report' ? message.report : message.result;
      if (options.ingest.saturated) {
        reading.hold('saturated');
        await options.ingest.whenDrained();
        reading.release('saturated');
        if (socket.destroyed) return;
      }
      // Submitted in the order the frames came, each answered once committed: a lock sending again the
      // messages it kept while away (up to 10 000) has them written in batches, not one commit each.
      inFlight += 1;
      if (inFlight >= MAX_IN_FLIGHT) reading.hold('inFlight');
      lastReceivedAt = Math.max(now(), lastReceivedAt + RECEIVE_TIME_STEP_MS);
      options.ingest
        .submit({
          protocol: 'tcp',
          address: { by: 'code', stationId: device.stationId, code: device.code },
          message: body,
          raw: frame.toString('utf8'),
          receivedAt: lastReceivedAt,
        })
        .then((outcome) => answered(body.messageId, outcome), failed);
    };

    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        if (!frame.ok) {
          refuse(frame.reason, frame.detail);
          return;
        }
        const body = frame.value;
        // Frames of one connection are taken in order (the auth first); ingest batches them with everyone else's.
        chain = chain.then(() => handle(body).catch(failed));
      }
    });
  };

  const server: Server = createServer(serve);
  server.maxConnections = options.maxConnections ?? 20_000;
  let port = options.port;
  return {
    get port() {
      return port;
    },
    get connected() {
      return devices.size;
    },
    disconnect(code: string) {
      devices.get(code)?.destroy();
    },
    send(code: string, frame: Buffer) {
      const socket = devices.get(code);
      if (!socket || socket.destroyed) return false;
      socket.write(frame);
      return true;
    },
    async listen() {
      port = await new Promise<number>((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) => {
          reject(
            new TcpDirectStartError(
              error.code === 'EADDRINUSE'
                ? `TCP_DIRECT_PORT ${options.port} is already in use: set TCP_DIRECT_PORT to a free port`
                : `TCP_DIRECT_PORT ${options.port}: ${error.message}`,
            ),
          );
        });
        server.listen({ port: options.port, host: options.host }, () => {
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : options.port);
        });
      });
      options.logger.info({ port }, 'TcpDirect listening');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
