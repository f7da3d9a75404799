/**
 * MQTT topics of the device bus (ARCHITECTURE §5): native locks publish under `dev/{stationId}/{code}/…`,
 * ChirpStack's integration under `application/{applicationId}/device/{devEui}/…`.
 */

import { MAX_SEGMENT_LENGTH } from './limits.ts';

export type DeviceChannel = 'up' | 'down' | 'ack';
export type ChirpstackEvent = 'up' | 'status' | 'ack' | 'txack' | 'join' | 'log' | 'location' | 'integration';

export const NATIVE_UP_FILTER = 'dev/+/+/up';
export const NATIVE_ACK_FILTER = 'dev/+/+/ack';
export const CHIRPSTACK_EVENT_FILTER = 'application/+/device/+/event/+';

const DEV_EUI = /^[0-9A-Fa-f]{16}$/;

/**
 * True when `value` can be one topic level: not empty, no level separator, no wildcard (a `+` or `#` in a
 * device code would let a device's own topic match other devices' filters), no NUL.
 */
export function isTopicSegment(value: string): boolean {
  if (value.length === 0 || value.length > MAX_SEGMENT_LENGTH) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // '/', '+', '#', NUL
    if (c === 0x2f || c === 0x2b || c === 0x23 || c === 0) return false;
  }
  return true;
}

export function isDevEui(value: string): boolean {
  return DEV_EUI.test(value);
}

function segment(name: string, value: string): string {
  if (!isTopicSegment(value))
    throw new RangeError(`${name} cannot be an MQTT topic level: ${JSON.stringify(value)}`);
  return value;
}

function devEuiLevel(devEui: string): string {
  if (!isDevEui(devEui)) throw new RangeError(`devEui must be 16 hex digits: ${JSON.stringify(devEui)}`);
  // ChirpStack writes the devEUI lower-case in its topics and subscribes to the same spelling.
  return devEui.toLowerCase();
}

/** `dev/{stationId}/{code}/{channel}`; throws a RangeError for an id that cannot be a topic level. */
export function deviceTopic(stationId: string, code: string, channel: DeviceChannel): string {
  return `dev/${segment('stationId', stationId)}/${segment('code', code)}/${channel}`;
}

export function parseDeviceTopic(
  topic: string,
): { stationId: string; code: string; channel: DeviceChannel } | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'dev') return null;
  const [, stationId, code, channel] = parts as [string, string, string, string];
  if (channel !== 'up' && channel !== 'down' && channel !== 'ack') return null;
  if (!isTopicSegment(stationId) || !isTopicSegment(code)) return null;
  return { stationId, code, channel };
}

/** `application/{applicationId}/device/{devEui}/event/{event}`, devEui lower-case. */
export function chirpstackEventTopic(applicationId: string, devEui: string, event: ChirpstackEvent): string {
  return `application/${segment('applicationId', applicationId)}/device/${devEuiLevel(devEui)}/event/${event}`;
}

/** Parses an event topic; the devEui comes back upper-case (the console's spelling of a devEUI). */
export function parseChirpstackTopic(
  topic: string,
): { applicationId: string; devEui: string; event: string } | null {
  const parts = topic.split('/');
  if (parts.length !== 6 || parts[0] !== 'application' || parts[2] !== 'device' || parts[4] !== 'event')
    return null;
  const applicationId = parts[1] as string;
  const devEui = parts[3] as string;
  const event = parts[5] as string;
  if (!isTopicSegment(applicationId) || !isDevEui(devEui) || !isTopicSegment(event)) return null;
  return { applicationId, devEui: devEui.toUpperCase(), event };
}

/** `application/{applicationId}/device/{devEui}/command/down`, devEui lower-case as ChirpStack writes it. */
export function chirpstackDownTopic(applicationId: string, devEui: string): string {
  return `application/${segment('applicationId', applicationId)}/device/${devEuiLevel(devEui)}/command/down`;
}
