/**
 * Topic rules of the device bus (ARCHITECTURE §4, §5), as pure functions.
 *
 * - the server's own internal client may publish and subscribe anywhere (publishing to the broker's
 *   reserved `$SYS/` tree excepted);
 * - a browser (`console` identity) connects over WebSocket only; it may only subscribe, at QoS 0, to
 *   `/UIOT/{stationId}/#` or filters below it whose kind level is a wildcard or a kind it reads, receives only
 *   the kinds it reads (`/UIOT/{stationId}/{kind}[/…]`), and never publishes;
 * - devices and the ChirpStack integration connect over TCP only;
 * - a device may only publish to `dev/{stationId}/{deviceCode}/up` and `.../ack` and only subscribe to
 *   `dev/{stationId}/{deviceCode}/down` (QoS 0 or 1);
 * - the ChirpStack integration may only publish device events `application/{app}/device/{devEui}/event/{event}`
 *   and subscribe to downlink commands `application/{app}/device/{devEui}/command/down` (wildcards allowed).
 */

import type { BrokerTransport } from './broker-ipc.ts';

/**
 * A browser on the broker: its station, its session (the token hash, which tells the connections of one
 * session when its permissions change) and the kinds of console topics it may receive.
 */
export interface ConsoleIdentity {
  kind: 'console';
  stationId: string;
  session: string;
  kinds: readonly string[];
}

/** Who a broker connection is, as decided by the server's `authorize` (never `internal`). */
export type BrokerIdentity =
  | ConsoleIdentity
  | { kind: 'device'; stationId: string; deviceCode: string }
  | { kind: 'chirpstack' };

/** An identity, or the server's own internal client. */
export type BrokerPrincipal = BrokerIdentity | { kind: 'internal' };

export type DeviceChannel = 'up' | 'down' | 'ack';

const MAX_LEVEL_LENGTH = 128;
/** More kinds than a console identity can carry: beyond, it is refused as malformed. */
const MAX_CONSOLE_KINDS = 64;
const MAX_TOPIC_LENGTH = 65_535;

/**
 * A station id or device code usable as one literal topic level: non-empty, at most 128 characters, without
 * `/`, the wildcards `+` and `#`, a leading `$` or control characters.
 */
export function isValidTopicLevel(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_LEVEL_LENGTH &&
    !value.startsWith('$') &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
    !/[/+#\u0000-\u001f\u007f]/.test(value)
  );
}

/** Checks an identity received over IPC or returned by `authorize`; returns a clean copy or null. */
export function parseBrokerIdentity(value: unknown): BrokerIdentity | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (
    v.kind === 'console' &&
    isValidTopicLevel(v.stationId) &&
    isValidTopicLevel(v.session) &&
    Array.isArray(v.kinds) &&
    v.kinds.length <= MAX_CONSOLE_KINDS &&
    v.kinds.every(isValidTopicLevel)
  ) {
    return { kind: 'console', stationId: v.stationId, session: v.session, kinds: [...v.kinds] };
  }
  if (v.kind === 'device' && isValidTopicLevel(v.stationId) && isValidTopicLevel(v.deviceCode)) {
    return { kind: 'device', stationId: v.stationId, deviceCode: v.deviceCode };
  }
  if (v.kind === 'chirpstack') return { kind: 'chirpstack' };
  return null;
}

export function consoleTopicPrefix(stationId: string): string {
  return `/UIOT/${stationId}/`;
}

/**
 * Browsers belong on the WebSocket listener, devices and the ChirpStack integration on the TCP one
 * (ARCHITECTURE §4): a session token is no device credential, and a device secret no session.
 */
export function mayConnectOver(identity: BrokerIdentity, transport: BrokerTransport): boolean {
  return identity.kind === 'console' ? transport === 'ws' : transport === 'tcp';
}

/** The kind level of a console topic or filter of the station (`+`, `#` or a name), or null below none. */
function consoleKindLevel(stationId: string, topic: string): string | null {
  const prefix = consoleTopicPrefix(stationId);
  if (!topic.startsWith(prefix) || topic.length === prefix.length) return null;
  const rest = topic.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash);
}

/**
 * Whether `principal` may receive a message published to `topic`, once subscribed: a console only the
 * kinds it reads, of its station; everyone else what its subscriptions allowed.
 */
export function canReceive(principal: BrokerPrincipal, topic: string): boolean {
  if (principal.kind !== 'console') return true;
  const kind = consoleKindLevel(principal.stationId, topic);
  return kind !== null && principal.kinds.includes(kind);
}

export function deviceTopic(stationId: string, deviceCode: string, channel: DeviceChannel): string {
  return `dev/${stationId}/${deviceCode}/${channel}`;
}

/** A topic name a client may publish to (MQTT 3.1.1 §4.7): non-empty, no wildcards, no NUL. */
export function isValidTopicName(topic: string): boolean {
  return (
    topic.length > 0 &&
    topic.length <= MAX_TOPIC_LENGTH &&
    !topic.includes('+') &&
    !topic.includes('#') &&
    !topic.includes('\u0000')
  );
}

/** A topic filter (MQTT 3.1.1 §4.7): `+` fills a whole level, `#` only as the whole last level. */
export function isValidTopicFilter(filter: string): boolean {
  if (filter.length === 0 || filter.length > MAX_TOPIC_LENGTH || filter.includes('\u0000')) return false;
  const levels = filter.split('/');
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    if (level.includes('#') && (level !== '#' || i !== levels.length - 1)) return false;
    if (level.includes('+') && level !== '+') return false;
  }
  return true;
}

/**
 * Splits a shared subscription `$share/{group}/{filter}` into its group and filter; a plain filter is
 * returned as is. Returns null for a malformed shared subscription.
 */
export function parseSharedFilter(filter: string): { group: string | null; filter: string } | null {
  if (!filter.startsWith('$share/')) return { group: null, filter };
  const rest = filter.slice('$share/'.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const group = rest.slice(0, slash);
  const inner = rest.slice(slash + 1);
  if (group.includes('+') || group.includes('#') || inner.length === 0) return null;
  return { group, filter: inner };
}

/**
 * Whether `topic` matches the topic `filter` (MQTT 3.1.1 §4.7: `+` one level, `#` this level and all below,
 * filters starting with a wildcard do not match topics starting with `$`). A `$share/{group}/` prefix on the
 * filter is ignored.
 */
export function topicMatches(filter: string, topic: string): boolean {
  return topicMatcher(filter)(topic);
}

/** `topicMatches` for one filter, read once: for matching every message a subscription receives. */
export function topicMatcher(filter: string): (topic: string) => boolean {
  const shared = parseSharedFilter(filter);
  if (!shared) return () => false;
  const f = shared.filter.split('/');
  const wildcardFirst = f[0] === '+' || f[0] === '#';
  // Called for every message the server receives: walks the topic's levels in place, without splitting it.
  return (topic) => {
    if (wildcardFirst && topic.startsWith('$')) return false;
    let start = 0; // where the topic's level i begins; -1 once the topic has no level i
    for (let i = 0; i < f.length; i++) {
      const level = f[i]!;
      if (level === '#') return i === f.length - 1;
      if (start < 0) return false;
      let end = topic.indexOf('/', start);
      if (end < 0) end = topic.length;
      if (level !== '+' && (end - start !== level.length || !topic.startsWith(level, start))) return false;
      start = end < topic.length ? end + 1 : -1;
    }
    return start < 0;
  };
}

/** `application/{app}/device/{devEui}/{rest…}` with literal application and devEUI levels. */
function chirpstackTopic(topic: string, rest: readonly string[]): boolean {
  const levels = topic.split('/');
  if (levels.length !== 4 + rest.length || levels[0] !== 'application' || levels[2] !== 'device')
    return false;
  return rest.every((level, i) =>
    level === '*' ? isValidTopicLevel(levels[4 + i]) : levels[4 + i] === level,
  );
}

/** A ChirpStack downlink filter: literal or `+` application and devEUI levels, then `command/down`. */
function chirpstackDownFilter(filter: string): boolean {
  const levels = filter.split('/');
  if (levels.length !== 6 || levels[0] !== 'application' || levels[2] !== 'device') return false;
  const free = (level: string | undefined) => level === '+' || isValidTopicLevel(level);
  return free(levels[1]) && free(levels[3]) && levels[4] === 'command' && levels[5] === 'down';
}

/** Whether `principal` may publish to `topic`. */
export function canPublish(principal: BrokerPrincipal, topic: string): boolean {
  if (!isValidTopicName(topic)) return false;
  switch (principal.kind) {
    case 'internal':
      return !topic.startsWith('$SYS/');
    case 'console':
      return false;
    case 'chirpstack': {
      const levels = topic.split('/');
      return (
        chirpstackTopic(topic, ['event', '*']) && isValidTopicLevel(levels[1]) && isValidTopicLevel(levels[3])
      );
    }
    case 'device':
      if (!isValidTopicLevel(principal.stationId) || !isValidTopicLevel(principal.deviceCode)) return false;
      return (
        topic === deviceTopic(principal.stationId, principal.deviceCode, 'up') ||
        topic === deviceTopic(principal.stationId, principal.deviceCode, 'ack')
      );
    default:
      return false;
  }
}

/** Whether `principal` may subscribe to `filter` at `qos`. */
export function canSubscribe(principal: BrokerPrincipal, filter: string, qos: number): boolean {
  if (!isValidTopicFilter(filter) || !(qos === 0 || qos === 1 || qos === 2)) return false;
  switch (principal.kind) {
    case 'internal':
      return true;
    case 'console': {
      if (!isValidTopicLevel(principal.stationId) || qos !== 0) return false;
      // A wildcard kind level is filtered per message (canReceive); a named kind must be one it reads.
      const kind = consoleKindLevel(principal.stationId, filter);
      return kind === '#' || kind === '+' || (kind !== null && principal.kinds.includes(kind));
    }
    case 'chirpstack':
      return qos <= 1 && chirpstackDownFilter(filter);
    case 'device':
      if (!isValidTopicLevel(principal.stationId) || !isValidTopicLevel(principal.deviceCode)) return false;
      return qos <= 1 && filter === deviceTopic(principal.stationId, principal.deviceCode, 'down');
    default:
      return false;
  }
}
