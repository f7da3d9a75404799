/**
 * Where a CLI fleet comes from: generated `SIM-00001…` devices, or a JSON file listing real devices (with
 * their secrets, which is why the file is read here and its content never printed).
 */
import { readFile } from 'node:fs/promises';
import { deviceProblem } from './fleet-check.ts';
import type { SimProtocol, SimulatedDevice } from './fleet-options.ts';

export type FleetProtocolChoice = SimProtocol | 'mixed';

const MIXED: readonly SimProtocol[] = ['mqtt', 'chirpstack', 'tcp'];
/** An OUI-style prefix for generated devEUIs, followed by the device number in 6 hex digits. */
const GENERATED_DEV_EUI_PREFIX = '70B3D57ED0';

/** `count` devices `{prefix}00001…` of one station; 'mixed' deals the protocols out in turn. */
export function generateDevices(
  count: number,
  options: { protocol: FleetProtocolChoice; stationId: string; prefix: string },
): SimulatedDevice[] {
  const devices: SimulatedDevice[] = [];
  for (let i = 0; i < count; i++) {
    const number = i + 1;
    const protocol =
      options.protocol === 'mixed' ? (MIXED[i % MIXED.length] as SimProtocol) : options.protocol;
    const device: SimulatedDevice = {
      stationId: options.stationId,
      code: `${options.prefix}${String(number).padStart(5, '0')}`,
      protocol,
    };
    if (protocol === 'chirpstack') {
      device.devEui = `${GENERATED_DEV_EUI_PREFIX}${number.toString(16).toUpperCase().padStart(6, '0')}`;
    }
    devices.push(device);
  }
  return devices;
}

/** The devices of a fleet file (a JSON array of SimulatedDevice), or a message naming what is wrong. */
export function parseFleetFile(
  text: string,
  name: string,
): { devices: SimulatedDevice[] } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `${name}: not JSON (${(error as Error).message})` };
  }
  if (!Array.isArray(parsed)) return { error: `${name}: must be a JSON array of devices` };
  if (parsed.length === 0) return { error: `${name}: lists no device` };
  const devices: SimulatedDevice[] = [];
  for (const [index, value] of parsed.entries()) {
    const problem = deviceProblem(value, `[${index}]`);
    if (problem) return { error: `${name}: ${problem}` };
    const { stationId, code, secret, protocol, devEui, pinSecret } = value as SimulatedDevice;
    devices.push({
      stationId,
      code,
      protocol,
      ...(secret === undefined ? {} : { secret }),
      ...(devEui === undefined ? {} : { devEui }),
      ...(pinSecret === undefined ? {} : { pinSecret }),
    });
  }
  return { devices };
}

export async function readFleetFile(
  path: string,
): Promise<{ devices: SimulatedDevice[] } | { error: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { error: `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return parseFleetFile(text, path);
}
