/**
 * The simulator CLI's arguments, parsed and checked as a pure function so that every refusal is tested;
 * `cli.ts` only runs what this returns.
 */
import { parseArgs } from 'node:util';
import { isTopicLevel, mqttUrlProblem } from './fleet-check.ts';
import type { FleetProtocolChoice } from './fleet-file.ts';

export interface CliOptions {
  /** Generated devices (absent with `fleetFile`). */
  devices?: number;
  fleetFile?: string;
  /** Load mode when set (reports/s); behaviour mode otherwise. */
  rate?: number;
  url: string;
  protocol: FleetProtocolChoice;
  station: string;
  prefix: string;
  durationSeconds?: number;
  tcp: { host: string; port: number };
  chirpstack: { username: string; password: string; applicationId?: string };
  seed?: number;
  heartbeatSeconds?: number;
  timeScale?: number;
  concurrency?: number;
}

export type CliParse =
  | { kind: 'run'; options: CliOptions }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

export const DEFAULT_URL = 'mqtt://127.0.0.1:1883';
export const DEFAULT_TCP = '127.0.0.1:9883';
export const DEFAULT_DEVICES = 10;
const MAX_DEVICES = 100_000;
const MAX_RATE = 1_000_000;
const PROTOCOLS: readonly FleetProtocolChoice[] = ['mqtt', 'chirpstack', 'tcp', 'mixed'];

export const USAGE = `Usage: npm run simulate -- [options]

Runs a fleet of simulated locks against a broker / server. Without --rate the locks behave (heartbeats,
door episodes, battery, damage); with --rate they send heartbeats at a fixed total rate (load mode).

  --devices N              generated devices SIM-00001… (default ${DEFAULT_DEVICES})
  --fleet FILE             JSON array of {stationId, code, secret?, protocol, devEui?, pinSecret?}
                           instead of generated devices
  --rate R                 load mode: R reports/s in total, spread evenly over the devices
  --duration S             stop after S seconds (default: run until Ctrl-C)
  --url URL                MQTT broker (default ${DEFAULT_URL})
  --protocol P             mqtt | chirpstack | tcp | mixed for generated devices (default mqtt)
  --station S              station of generated devices (default UIOT-001)
  --prefix P               code prefix of generated devices (default SIM-)
  --tcp HOST:PORT          TcpDirect server (default ${DEFAULT_TCP})
  --application-id A       ChirpStack application id (required for chirpstack devices)
  --chirpstack-username U  ChirpStack integration user (default chirpstack)
  --chirpstack-password X  its password (or env CHIRPSTACK_MQTT_PASSWORD)
  --heartbeat S            behaviour mode: heartbeat interval in seconds (default 60)
  --time-scale X           behaviour mode: simulated seconds per real second (default 1)
  --seed N                 seed of the locks' behaviour
  --concurrency N          connections opened at once (default 100)
  --help                   this text

Progress goes to stderr every 5 s; at the end one line of JSON (the counters and rates) goes to stdout.`;

const OPTIONS = {
  devices: { type: 'string' },
  fleet: { type: 'string' },
  rate: { type: 'string' },
  duration: { type: 'string' },
  url: { type: 'string' },
  protocol: { type: 'string' },
  station: { type: 'string' },
  prefix: { type: 'string' },
  tcp: { type: 'string' },
  'application-id': { type: 'string' },
  'chirpstack-username': { type: 'string' },
  'chirpstack-password': { type: 'string' },
  heartbeat: { type: 'string' },
  'time-scale': { type: 'string' },
  seed: { type: 'string' },
  concurrency: { type: 'string' },
  help: { type: 'boolean' },
} as const;

type ArgValues = Partial<Record<Exclude<keyof typeof OPTIONS, 'help'>, string>> & { help?: boolean };

/** A number argument, or the message saying what it must be. */
function numberArg(
  name: string,
  text: string | undefined,
  rule: { integer?: boolean; min: number; max: number; exclusiveMin?: boolean },
): number | string | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  const kind = rule.integer ? 'an integer' : 'a number';
  const range = rule.exclusiveMin ? `above ${rule.min} up to ${rule.max}` : `from ${rule.min} to ${rule.max}`;
  const valid =
    text.trim() !== '' &&
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    value <= rule.max &&
    (rule.exclusiveMin ? value > rule.min : value >= rule.min);
  return valid ? value : `--${name} must be ${kind} ${range}, not ${JSON.stringify(text)}`;
}

/** `host:port`, `[v6]:port`. */
export function parseHostPort(text: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: (match[1] ?? match[2]) as string, port };
}

export function parseCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliParse {
  let values: ArgValues;
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // parseArgs says which option it did not know or which value was missing.
    return { kind: 'error', message: (error as Error).message };
  }
  if (values.help) return { kind: 'help' };
  const fail = (message: string): CliParse => ({ kind: 'error', message });

  const numbers = {
    devices: numberArg('devices', values.devices, { integer: true, min: 1, max: MAX_DEVICES }),
    rate: numberArg('rate', values.rate, { min: 0, max: MAX_RATE, exclusiveMin: true }),
    duration: numberArg('duration', values.duration, { min: 0, max: 7 * 86_400, exclusiveMin: true }),
    heartbeat: numberArg('heartbeat', values.heartbeat, { min: 1, max: 86_400 }),
    timeScale: numberArg('time-scale', values['time-scale'], { min: 0, max: 10_000, exclusiveMin: true }),
    seed: numberArg('seed', values.seed, { integer: true, min: 0, max: 0xffffffff }),
    concurrency: numberArg('concurrency', values.concurrency, { integer: true, min: 1, max: 10_000 }),
  };
  for (const value of Object.values(numbers)) if (typeof value === 'string') return fail(value);
  const num = (value: number | string | undefined): number | undefined => value as number | undefined;

  if (values.fleet !== undefined) {
    for (const generatedOnly of ['devices', 'protocol', 'station', 'prefix'] as const) {
      if (values[generatedOnly] !== undefined) {
        return fail(
          `--${generatedOnly} describes generated devices; the fleet file --fleet describes its own`,
        );
      }
    }
    if (values.fleet === '') return fail('--fleet needs a file name');
  }
  if (values.rate !== undefined) {
    if (values.heartbeat !== undefined) return fail('--heartbeat is for behaviour mode; drop it or --rate');
    if (values['time-scale'] !== undefined)
      return fail('--time-scale is for behaviour mode; drop it or --rate');
  }

  const protocol = (values.protocol ?? 'mqtt') as FleetProtocolChoice;
  if (!PROTOCOLS.includes(protocol)) return fail(`--protocol must be one of ${PROTOCOLS.join(', ')}`);
  const station = values.station ?? 'UIOT-001';
  if (!isTopicLevel(station)) return fail('--station must be 1..64 characters without / + #');
  const prefix = values.prefix ?? 'SIM-';
  if (!isTopicLevel(`${prefix}00000`) || prefix.length > 50) {
    return fail('--prefix must be at most 50 characters without / + #');
  }
  const url = values.url ?? DEFAULT_URL;
  const urlProblem = mqttUrlProblem(url, '--url');
  if (urlProblem) return fail(urlProblem);
  const tcp = parseHostPort(values.tcp ?? DEFAULT_TCP);
  if (!tcp) return fail('--tcp must be HOST:PORT with a port 1..65535');

  const applicationId = values['application-id'];
  if (applicationId !== undefined && !isTopicLevel(applicationId)) {
    return fail('--application-id must be 1..64 characters without / + #');
  }
  if (values.fleet === undefined && (protocol === 'chirpstack' || protocol === 'mixed') && !applicationId) {
    return fail(`--application-id is required for --protocol ${protocol}`);
  }
  const username = values['chirpstack-username'] ?? 'chirpstack';
  if (username === '') return fail('--chirpstack-username must not be empty');

  const options: CliOptions = {
    url,
    protocol,
    station,
    prefix,
    tcp,
    chirpstack: {
      username,
      password: values['chirpstack-password'] ?? env.CHIRPSTACK_MQTT_PASSWORD ?? '',
      ...(applicationId === undefined ? {} : { applicationId }),
    },
  };
  if (values.fleet !== undefined) options.fleetFile = values.fleet;
  else options.devices = num(numbers.devices) ?? DEFAULT_DEVICES;
  const optional = {
    rate: num(numbers.rate),
    durationSeconds: num(numbers.duration),
    heartbeatSeconds: num(numbers.heartbeat),
    timeScale: num(numbers.timeScale),
    seed: num(numbers.seed),
    concurrency: num(numbers.concurrency),
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) (options as unknown as Record<string, unknown>)[key] = value;
  }
  return { kind: 'run', options };
}
