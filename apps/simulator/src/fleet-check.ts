/**
 * Validation of a fleet's options: a fleet that cannot work is refused before any connection is opened,
 * with a message naming the device and the field.
 */

import { type FleetOptions, SIM_PROTOCOLS, type SimProtocol } from './fleet-options.ts';
import { plainMqttAddress } from './native-mqtt-link.ts';

const DEV_EUI = /^[0-9A-Fa-f]{16}$/;
const PIN_SECRET = /^[0-9A-Fa-f]{40}$/;
const MQTT_URL_PROTOCOLS = new Set(['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'tls:', 'ws:', 'wss:']);
const MAX_SEGMENT = 64;
const MAX_SECRET = 256;
const MAX_IN_FLIGHT = 60_000;

/** True when `value` can be one MQTT topic level (no separator, wildcard or NUL: ARCHITECTURE §5). */
export function isTopicLevel(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length > 0 && value.length <= MAX_SEGMENT && !/[/+#\0]/.test(value)
  );
}

/** What is wrong with one device description (from options or a fleet file), or undefined. */
export function deviceProblem(value: unknown, where: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${where}: must be an object`;
  const device = value as Record<string, unknown>;
  if (!isTopicLevel(device.stationId)) {
    return `${where}.stationId: must be 1..${MAX_SEGMENT} characters without / + #`;
  }
  if (!isTopicLevel(device.code)) return `${where}.code: must be 1..${MAX_SEGMENT} characters without / + #`;
  if (
    device.secret !== undefined &&
    (typeof device.secret !== 'string' || device.secret.length > MAX_SECRET)
  ) {
    return `${where}.secret: must be a string of at most ${MAX_SECRET} characters`;
  }
  if (!SIM_PROTOCOLS.includes(device.protocol as SimProtocol)) {
    return `${where}.protocol: must be one of ${SIM_PROTOCOLS.join(', ')}`;
  }
  if (device.devEui !== undefined && (typeof device.devEui !== 'string' || !DEV_EUI.test(device.devEui))) {
    return `${where}.devEui: must be 16 hex digits`;
  }
  // The message never repeats the value: a PIN secret derives every PIN of its lock.
  if (
    device.pinSecret !== undefined &&
    (typeof device.pinSecret !== 'string' || !PIN_SECRET.test(device.pinSecret))
  ) {
    return `${where}.pinSecret: must be 40 hex digits (the 20-byte pinSecret shown with the device credential)`;
  }
  if (device.protocol === 'chirpstack' && device.devEui === undefined) {
    return `${where}.devEui: required for a chirpstack device`;
  }
  return undefined;
}

function positive(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

export function mqttUrlProblem(url: unknown, field: string): string | undefined {
  if (typeof url !== 'string') return `${field}: required for mqtt and chirpstack devices`;
  try {
    const parsed = new URL(url);
    if (!MQTT_URL_PROTOCOLS.has(parsed.protocol))
      return `${field}: must be an mqtt://, mqtts://, ws:// or wss:// URL`;
  } catch {
    return `${field}: not a URL`;
  }
  return undefined;
}

/** What is wrong with a fleet's options, or undefined. */
export function fleetOptionsProblem(options: FleetOptions): string | undefined {
  if (!Array.isArray(options.devices)) return 'devices: must be an array';
  const codes = new Set<string>();
  const stationCodes = new Set<string>();
  const devEuis = new Set<string>();
  const used = new Set<SimProtocol>();
  for (const [index, device] of options.devices.entries()) {
    const where = `devices[${index}]`;
    const problem = deviceProblem(device, where);
    if (problem) return problem;
    used.add(device.protocol);
    const stationCode = `${device.stationId}/${device.code}`;
    if (stationCodes.has(stationCode))
      return `${where}: device ${device.code} of station ${device.stationId} twice`;
    stationCodes.add(stationCode);
    // Native clients are named dev-{code}: two of them with one code would throw each other off the broker.
    if (device.protocol === 'mqtt') {
      if (codes.has(device.code)) return `${where}: a second mqtt device with code ${device.code}`;
      codes.add(device.code);
    }
    if (device.devEui !== undefined) {
      const eui = device.devEui.toLowerCase();
      if (devEuis.has(eui)) return `${where}.devEui: ${device.devEui} twice`;
      devEuis.add(eui);
    }
  }
  if (used.has('mqtt') || used.has('chirpstack')) {
    const problem = mqttUrlProblem(options.mqttUrl, 'mqttUrl');
    if (problem) return problem;
  }
  if (used.has('mqtt')) {
    const address = plainMqttAddress(options.mqttUrl as string);
    if (address instanceof Error) return `mqttUrl: ${address.message}`;
  }
  if (used.has('chirpstack')) {
    const chirpstack = options.chirpstack;
    if (chirpstack === undefined) return 'chirpstack: required for chirpstack devices';
    if (!isTopicLevel(chirpstack.applicationId)) return 'chirpstack.applicationId: must be one topic level';
    if (typeof chirpstack.username !== 'string' || chirpstack.username === '') {
      return 'chirpstack.username: must be a non-empty string';
    }
    if (typeof chirpstack.password !== 'string') return 'chirpstack.password: must be a string';
  }
  if (used.has('tcp')) {
    const tcp = options.tcp;
    if (tcp === undefined) return 'tcp: required for tcp devices';
    if (typeof tcp.host !== 'string' || tcp.host === '') return 'tcp.host: must be a host name or address';
    if (!Number.isInteger(tcp.port) || tcp.port < 1 || tcp.port > 65_535) return 'tcp.port: must be 1..65535';
  }
  const mode = options.mode;
  if (mode?.kind === 'behaviour') {
    if (mode.heartbeatSeconds !== undefined && !positive(mode.heartbeatSeconds)) {
      return 'mode.heartbeatSeconds: must be a positive number';
    }
    if (mode.timeScale !== undefined && !positive(mode.timeScale))
      return 'mode.timeScale: must be a positive number';
  } else if (mode?.kind === 'load') {
    if (!positive(mode.rate)) return 'mode.rate: must be a positive number of reports per second';
    // A device's own MQTT connection has 65 535 packet ids for its unacknowledged publishes.
    if (
      mode.maxInFlightPerDevice !== undefined &&
      (!positiveInteger(mode.maxInFlightPerDevice) || mode.maxInFlightPerDevice > MAX_IN_FLIGHT)
    ) {
      return `mode.maxInFlightPerDevice: must be an integer from 1 to ${MAX_IN_FLIGHT}`;
    }
    if (options.devices.length === 0) return 'devices: load mode needs at least one device';
  } else {
    return "mode.kind: must be 'behaviour' or 'load'";
  }
  if (options.seed !== undefined && !Number.isFinite(options.seed)) return 'seed: must be a number';
  if (options.connectConcurrency !== undefined && !positiveInteger(options.connectConcurrency)) {
    return 'connectConcurrency: must be a positive integer';
  }
  return undefined;
}
