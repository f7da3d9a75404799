import { ResultCode } from '@uiot/contracts';
import type { DeviceCommand, NbPlatform } from '@uiot/device-protocol';
import { AppError } from '../../http/app-error.ts';

/** The lock as its carrier's platform knows it (from the ledger; docs/device-protocol.md, NB-IoT downlinks). */
export interface NbTarget {
  imei: string;
  /** The platform's product of the device (ledger `productId`), if any. */
  productId: string | null;
  /** The platform's own id of the device, learnt from its callbacks, if any. */
  platformDeviceId: string | null;
}

/** One carrier's command API: hands the lock's binary command to the platform, which queues it for the lock. */
export interface NbCommandPlatform {
  /** Resolves with the platform's command id once the platform holds the command. */
  send(target: NbTarget, payload: Uint8Array, command: DeviceCommand): Promise<{ receiveId: string }>;
  /** The platform's name for the device this platform addresses commands to. */
  deviceIdOf(target: NbTarget): string;
}

/** An HTTP request to a platform, as built by the pure functions of each carrier (tests compare it). */
export interface PlatformRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A platform's answer: its HTTP status and its body, parsed when it is JSON. */
export interface PlatformAnswer {
  status: number;
  body: unknown;
}

/** How long a platform may take to answer one request (then the attempt counts as failed). */
export const PLATFORM_TIMEOUT_MS = 10_000;

/**
 * A platform that answered with an error, or not at all: the attempt failed and the command service tries
 * again. Only the platform and what it said are kept, never the request (credentials, payload).
 */
export function platformFailure(platform: NbPlatform, detail: string): AppError {
  return new AppError(ResultCode.ServiceUnavailable, { params: { network: platform, detail } });
}

/** The platform does not know the device: sending again cannot mend it. */
export function unknownDevice(): AppError {
  return new AppError(ResultCode.DeviceNotRegistered);
}

/** The ledger lacks what the platform names the device by (`field`): the command cannot leave. */
export function notAddressable(platform: NbPlatform, field: string): AppError {
  return new AppError(ResultCode.CommandUnsupported, { params: { network: `${platform} (${field})` } });
}

/** Sends one request; a network failure or a timeout is a platform failure. */
export async function callPlatform(
  platform: NbPlatform,
  request: PlatformRequest,
  timeoutMs = PLATFORM_TIMEOUT_MS,
): Promise<PlatformAnswer> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw platformFailure(platform, timedOut ? 'timeout' : 'unreachable');
  }
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/** How long the platform may keep a command: until it expires (a day when it has no expiry), in seconds. */
export function secondsLeft(expireAt: number | undefined, now: number): number {
  return expireAt === undefined ? 86_400 : Math.max(0, Math.ceil((expireAt - now) / 1000));
}

/** A field of a JSON object answer, if the answer is an object. */
export function fieldOf(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

/** A platform id (text or a whole number) as text; undefined otherwise. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0 && value.length <= 128) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return undefined;
}

/** The command id in a successful answer (`field` names it in the failure when it is missing). */
export function commandIdIn(platform: NbPlatform, value: unknown, field: string): { receiveId: string } {
  const receiveId = idText(value);
  if (!receiveId) throw platformFailure(platform, `answer without ${field}`);
  return { receiveId };
}

/** How a platform whose every command is one self-signed request builds it and reads its answer (pure). */
export interface OneRequestApi<S> {
  platform: NbPlatform;
  deviceIdOf(settings: S, target: NbTarget): string;
  /** Throws for a target the platform cannot be asked about. */
  request(
    settings: S,
    target: NbTarget,
    payload: Uint8Array,
    command: Pick<DeviceCommand, 'expireAt'>,
    now: number,
  ): PlatformRequest;
  parse(answer: PlatformAnswer): { receiveId: string };
}

/** A platform client that sends each command as one request (no session to keep). */
export function oneRequestPlatform<S>(
  api: OneRequestApi<S>,
  settings: S,
  now: () => number = Date.now,
): NbCommandPlatform {
  return {
    deviceIdOf: (target) => api.deviceIdOf(settings, target),
    send: async (target, payload, command) =>
      api.parse(await callPlatform(api.platform, api.request(settings, target, payload, command, now()))),
  };
}
