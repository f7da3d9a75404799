import { describe, expect, it } from 'vitest';
import {
  type BrokerPrincipal,
  type ConsoleIdentity,
  canPublish,
  canReceive,
  canSubscribe,
  isValidTopicFilter,
  isValidTopicLevel,
  isValidTopicName,
  mayConnectOver,
  parseBrokerIdentity,
  parseSharedFilter,
  topicMatches,
} from './topic-acl.ts';

const internal: BrokerPrincipal = { kind: 'internal' };
const SESSION = 'a'.repeat(64);
const browser: BrokerPrincipal = {
  kind: 'console',
  stationId: 'S1',
  session: SESSION,
  kinds: ['runtime', 'command'],
};
const consoleReading = (...kinds: string[]): ConsoleIdentity => ({
  kind: 'console',
  stationId: 'S1',
  session: SESSION,
  kinds,
});
const device = { kind: 'device', stationId: 'S1', deviceCode: 'L-0001' } as const;

describe('internal client', () => {
  it('may publish anywhere except the broker-reserved $SYS tree', () => {
    expect(canPublish(internal, '/UIOT/S1/runtime/x')).toBe(true);
    expect(canPublish(internal, 'dev/S1/L-0001/down')).toBe(true);
    expect(canPublish(internal, 'anything/else')).toBe(true);
    expect(canPublish(internal, '$SYS/broker/x')).toBe(false);
  });

  it('may subscribe to anything, at any QoS, shared subscriptions included', () => {
    expect(canSubscribe(internal, '#', 0)).toBe(true);
    expect(canSubscribe(internal, 'dev/+/+/up', 1)).toBe(true);
    expect(canSubscribe(internal, '$share/uiot/dev/+/+/up', 1)).toBe(true);
    expect(canSubscribe(internal, '/UIOT/S2/#', 2)).toBe(true);
  });

  it('still needs well-formed topics', () => {
    expect(canPublish(internal, 'a/+/b')).toBe(false);
    expect(canPublish(internal, 'a/#')).toBe(false);
    expect(canPublish(internal, '')).toBe(false);
    expect(canSubscribe(internal, 'a/#/b', 0)).toBe(false);
    expect(canSubscribe(internal, 'a/b+', 0)).toBe(false);
    expect(canSubscribe(internal, 'a', 3)).toBe(false);
  });
});

describe('console (browser) identity', () => {
  it('may subscribe at QoS 0 to its station console tree and below', () => {
    expect(canSubscribe(browser, '/UIOT/S1/#', 0)).toBe(true);
    expect(canSubscribe(browser, '/UIOT/S1/command/#', 0)).toBe(true);
    expect(canSubscribe(browser, '/UIOT/S1/runtime/L-0001', 0)).toBe(true);
    expect(canSubscribe(browser, '/UIOT/S1/+/L-0001', 0)).toBe(true);
  });

  it('may not subscribe above QoS 0', () => {
    expect(canSubscribe(browser, '/UIOT/S1/#', 1)).toBe(false);
    expect(canSubscribe(browser, '/UIOT/S1/#', 2)).toBe(false);
  });

  it("may not subscribe to another station's topics", () => {
    expect(canSubscribe(browser, '/UIOT/S2/#', 0)).toBe(false);
    expect(canSubscribe(browser, '/UIOT/S10/#', 0)).toBe(false);
    expect(canSubscribe(browser, '/UIOT/S/#', 0)).toBe(false);
    expect(canSubscribe(browser, '/UIOT/S1x/#', 0)).toBe(false);
  });

  it('may not widen the filter with wildcards above its station', () => {
    expect(canSubscribe(browser, '/UIOT/+/#', 0)).toBe(false);
    expect(canSubscribe(browser, '/UIOT/#', 0)).toBe(false);
    expect(canSubscribe(browser, '#', 0)).toBe(false);
    expect(canSubscribe(browser, '+/UIOT/S1/#', 0)).toBe(false);
    expect(canSubscribe(browser, '/UIOT/S1', 0)).toBe(false);
    expect(canSubscribe(browser, '/UIOT/S1/', 0)).toBe(false);
    expect(canSubscribe(browser, 'UIOT/S1/#', 0)).toBe(false);
  });

  it('may not subscribe to device, system or shared topics', () => {
    expect(canSubscribe(browser, 'dev/S1/L-0001/up', 0)).toBe(false);
    expect(canSubscribe(browser, 'dev/S1/#', 0)).toBe(false);
    expect(canSubscribe(browser, '$SYS/#', 0)).toBe(false);
    expect(canSubscribe(browser, '$share/g//UIOT/S1/#', 0)).toBe(false);
  });

  it('may not publish anywhere, its own station included', () => {
    expect(canPublish(browser, '/UIOT/S1/runtime/x')).toBe(false);
    expect(canPublish(browser, 'dev/S1/L-0001/down')).toBe(false);
    expect(canPublish(browser, 'dev/S1/L-0001/up')).toBe(false);
  });

  it('grants nothing when the station id could act as a wildcard or span levels', () => {
    for (const stationId of ['#', '+', 'S1/#', '', '$SYS']) {
      const bad = { kind: 'console', stationId, session: SESSION, kinds: ['runtime'] } as BrokerPrincipal;
      expect(canSubscribe(bad, `/UIOT/${stationId}/#`, 0)).toBe(false);
    }
  });
});

describe('finding 6: a console receives only the kinds its permissions read', () => {
  it('receives a kind it reads, of its station, and nothing else', () => {
    const monitor = consoleReading('runtime');
    expect(canReceive(monitor, '/UIOT/S1/runtime')).toBe(true);
    expect(canReceive(monitor, '/UIOT/S1/runtime/L-0001')).toBe(true);
    expect(canReceive(monitor, '/UIOT/S1/command')).toBe(false);
    expect(canReceive(monitor, '/UIOT/S1/alarm')).toBe(false);
    expect(canReceive(monitor, '/UIOT/S1/runtimes')).toBe(false);
    expect(canReceive(monitor, '/UIOT/S1')).toBe(false);
    expect(canReceive(monitor, '/UIOT/S1/')).toBe(false);
    expect(canReceive(monitor, '/UIOT/S2/runtime')).toBe(false);
    expect(canReceive(monitor, 'dev/S1/L-0001/down')).toBe(false);
  });

  it('receives nothing without a kind', () => {
    const nobody = consoleReading();
    for (const topic of ['/UIOT/S1/runtime', '/UIOT/S1/command', '/UIOT/S1/anything']) {
      expect(canReceive(nobody, topic)).toBe(false);
    }
  });

  it('subscribes to the whole station (filtered per message) or to a kind it reads, never to another kind', () => {
    const commands = consoleReading('command');
    expect(canSubscribe(commands, '/UIOT/S1/#', 0)).toBe(true);
    expect(canSubscribe(commands, '/UIOT/S1/+', 0)).toBe(true);
    expect(canSubscribe(commands, '/UIOT/S1/command', 0)).toBe(true);
    expect(canSubscribe(commands, '/UIOT/S1/command/#', 0)).toBe(true);
    expect(canSubscribe(commands, '/UIOT/S1/runtime', 0)).toBe(false);
    expect(canSubscribe(commands, '/UIOT/S1/runtime/#', 0)).toBe(false);
    expect(canSubscribe(commands, '/UIOT/S1//x', 0)).toBe(false);
    expect(canSubscribe(consoleReading(), '/UIOT/S1/#', 0)).toBe(true);
  });

  it('leaves what others receive to their subscriptions', () => {
    expect(canReceive(internal, '/UIOT/S2/runtime')).toBe(true);
    expect(canReceive(device, 'dev/S1/L-0001/down')).toBe(true);
    expect(canReceive({ kind: 'chirpstack' }, 'application/a/device/e/command/down')).toBe(true);
  });
});

describe('finding 5: each listener for its own kind of client', () => {
  it('admits browsers over WebSocket only, devices and ChirpStack over TCP only', () => {
    expect(mayConnectOver(consoleReading('runtime'), 'ws')).toBe(true);
    expect(mayConnectOver(consoleReading('runtime'), 'tcp')).toBe(false);
    expect(mayConnectOver({ kind: 'device', stationId: 'S1', deviceCode: 'L1' }, 'tcp')).toBe(true);
    expect(mayConnectOver({ kind: 'device', stationId: 'S1', deviceCode: 'L1' }, 'ws')).toBe(false);
    expect(mayConnectOver({ kind: 'chirpstack' }, 'tcp')).toBe(true);
    expect(mayConnectOver({ kind: 'chirpstack' }, 'ws')).toBe(false);
  });
});

describe('device identity', () => {
  it('may publish only to its own up and ack topics', () => {
    expect(canPublish(device, 'dev/S1/L-0001/up')).toBe(true);
    expect(canPublish(device, 'dev/S1/L-0001/ack')).toBe(true);
    expect(canPublish(device, 'dev/S1/L-0001/down')).toBe(false);
    expect(canPublish(device, 'dev/S1/L-0002/up')).toBe(false);
    expect(canPublish(device, 'dev/S2/L-0001/up')).toBe(false);
    expect(canPublish(device, 'dev/S1/L-0001/up/more')).toBe(false);
    expect(canPublish(device, '/UIOT/S1/runtime/x')).toBe(false);
  });

  it('may subscribe only to its own down topic, at QoS 0 or 1, without wildcards', () => {
    expect(canSubscribe(device, 'dev/S1/L-0001/down', 0)).toBe(true);
    expect(canSubscribe(device, 'dev/S1/L-0001/down', 1)).toBe(true);
    expect(canSubscribe(device, 'dev/S1/L-0001/down', 2)).toBe(false);
    expect(canSubscribe(device, 'dev/S1/L-0001/up', 0)).toBe(false);
    expect(canSubscribe(device, 'dev/S1/L-0001/ack', 0)).toBe(false);
    expect(canSubscribe(device, 'dev/S1/+/down', 0)).toBe(false);
    expect(canSubscribe(device, 'dev/S1/L-0001/#', 0)).toBe(false);
    expect(canSubscribe(device, 'dev/S1/L-0002/down', 0)).toBe(false);
    expect(canSubscribe(device, '/UIOT/S1/#', 0)).toBe(false);
  });

  it('grants nothing when the device code is not a literal topic level', () => {
    const bad = { kind: 'device', stationId: 'S1', deviceCode: '+' } as BrokerPrincipal;
    expect(canPublish(bad, 'dev/S1/+/up')).toBe(false);
    expect(canSubscribe(bad, 'dev/S1/+/down', 0)).toBe(false);
  });
});

describe('unknown principals', () => {
  it('are denied everything', () => {
    const stranger = { kind: 'admin' } as unknown as BrokerPrincipal;
    expect(canPublish(stranger, 'a')).toBe(false);
    expect(canSubscribe(stranger, 'a', 0)).toBe(false);
  });
});

describe('parseBrokerIdentity', () => {
  it('accepts console and device identities and drops extra fields', () => {
    expect(
      parseBrokerIdentity({
        kind: 'console',
        stationId: 'S1',
        session: SESSION,
        kinds: ['runtime'],
        extra: 1,
      }),
    ).toEqual({ kind: 'console', stationId: 'S1', session: SESSION, kinds: ['runtime'] });
    expect(parseBrokerIdentity({ kind: 'device', stationId: 'S1', deviceCode: 'L1' })).toEqual({
      kind: 'device',
      stationId: 'S1',
      deviceCode: 'L1',
    });
  });

  it('rejects internal, malformed and wildcard identities', () => {
    expect(parseBrokerIdentity({ kind: 'internal' })).toBeNull();
    expect(parseBrokerIdentity({ kind: 'console', stationId: 1 })).toBeNull();
    expect(parseBrokerIdentity({ kind: 'console', stationId: '#' })).toBeNull();
    expect(parseBrokerIdentity({ kind: 'console', stationId: 'S1', kinds: ['runtime'] })).toBeNull();
    expect(parseBrokerIdentity({ kind: 'console', stationId: 'S1', session: SESSION })).toBeNull();
    expect(
      parseBrokerIdentity({ kind: 'console', stationId: 'S1', session: SESSION, kinds: ['#'] }),
    ).toBeNull();
    expect(
      parseBrokerIdentity({ kind: 'console', stationId: 'S1', session: SESSION, kinds: 'runtime' }),
    ).toBeNull();
    expect(parseBrokerIdentity({ kind: 'device', stationId: 'S1' })).toBeNull();
    expect(parseBrokerIdentity(null)).toBeNull();
    expect(parseBrokerIdentity('console')).toBeNull();
  });

  it('checks topic levels', () => {
    expect(isValidTopicLevel('UIOT-001')).toBe(true);
    expect(isValidTopicLevel('a/b')).toBe(false);
    expect(isValidTopicLevel('a\u0000')).toBe(false);
    expect(isValidTopicLevel('x'.repeat(129))).toBe(false);
  });
});

describe('topic filters and matching', () => {
  it('validates filters', () => {
    expect(isValidTopicFilter('a/+/c/#')).toBe(true);
    expect(isValidTopicFilter('#')).toBe(true);
    expect(isValidTopicFilter('a/#/c')).toBe(false);
    expect(isValidTopicFilter('a#')).toBe(false);
    expect(isValidTopicFilter('')).toBe(false);
  });

  it('matches + and # like MQTT 3.1.1', () => {
    expect(topicMatches('dev/+/+/up', 'dev/S1/L1/up')).toBe(true);
    expect(topicMatches('dev/+/+/up', 'dev/S1/L1/ack')).toBe(false);
    expect(topicMatches('dev/+/up', 'dev/S1/L1/up')).toBe(false);
    expect(topicMatches('/UIOT/S1/#', '/UIOT/S1/alarm/x')).toBe(true);
    expect(topicMatches('/UIOT/S1/#', '/UIOT/S1')).toBe(true);
    expect(topicMatches('/UIOT/S1/#', '/UIOT/S2/alarm')).toBe(false);
    expect(topicMatches('a/b', 'a/b')).toBe(true);
    expect(topicMatches('a/b', 'a/b/c')).toBe(false);
    expect(topicMatches('a/+', 'a/')).toBe(true);
    expect(topicMatches('#', '$SYS/x')).toBe(false);
    expect(topicMatches('+/x', '$SYS/x')).toBe(false);
    expect(topicMatches('$SYS/#', '$SYS/x')).toBe(true);
    expect(topicMatches('a/b', 'a/bc')).toBe(false);
    expect(topicMatches('a/bc', 'a/b')).toBe(false);
    expect(topicMatches('a/b', 'a')).toBe(false);
    expect(topicMatches('a/+/b', 'a//b')).toBe(true);
    expect(topicMatches('+/UIOT', '/UIOT')).toBe(true);
    expect(topicMatches('a/b/#', 'a/b')).toBe(true);
    expect(topicMatches('a/+', 'a/b/')).toBe(false);
  });

  it('decides as the level-by-level definition does, for every filter and topic of a small alphabet', () => {
    const byDefinition = (filter: string, topic: string): boolean => {
      const f = filter.split('/');
      const t = topic.split('/');
      if ((f[0] === '+' || f[0] === '#') && topic.startsWith('$')) return false;
      for (let i = 0; i < f.length; i++) {
        if (f[i] === '#') return true;
        if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
      }
      return f.length === t.length;
    };
    // Every string of up to four characters over {a, b, /, $} as a topic, every such filter with + and #.
    const strings = (alphabet: string[], maxLength: number): string[] => {
      const out = [''];
      for (let i = 0, from = 0; i < maxLength; i++) {
        const to = out.length;
        for (let j = from; j < to; j++) for (const c of alphabet) out.push(out[j] + c);
        from = to;
      }
      return out.slice(1);
    };
    const topics = strings(['a', 'b', '/', '$'], 4).filter(isValidTopicName);
    const filters = strings(['a', '+', '/', '#', '$'], 4).filter(isValidTopicFilter);
    expect(topics.length).toBeGreaterThan(100);
    expect(filters.length).toBeGreaterThan(100);
    for (const filter of filters) {
      for (const topic of topics) {
        if (topicMatches(filter, topic) !== byDefinition(filter, topic)) {
          expect.fail(`${filter} against ${topic}: ${topicMatches(filter, topic)}`);
        }
      }
    }
  });

  it('ignores the $share/{group}/ prefix when matching', () => {
    expect(parseSharedFilter('$share/uiot/dev/+/+/up')).toEqual({ group: 'uiot', filter: 'dev/+/+/up' });
    expect(parseSharedFilter('dev/#')).toEqual({ group: null, filter: 'dev/#' });
    expect(parseSharedFilter('$share/uiot')).toBeNull();
    expect(parseSharedFilter('$share//dev/#')).toBeNull();
    expect(parseSharedFilter('$share/+/dev/#')).toBeNull();
    expect(topicMatches('$share/uiot/dev/+/+/up', 'dev/S1/L1/up')).toBe(true);
    expect(topicMatches('$share/uiot/dev/+/+/up', 'dev/S1/L1/down')).toBe(false);
  });
});

describe('the ChirpStack integration', () => {
  const chirpstack = { kind: 'chirpstack' } as const;
  const eui = '0011223344556677';

  it('publishes device events only', () => {
    expect(canPublish(chirpstack, `application/app-1/device/${eui}/event/up`)).toBe(true);
    expect(canPublish(chirpstack, `application/app-1/device/${eui}/event/txack`)).toBe(true);
    expect(canPublish(chirpstack, `application/app-1/device/${eui}/command/down`)).toBe(false);
    expect(canPublish(chirpstack, `application/app-1/device/${eui}/event`)).toBe(false);
    expect(canPublish(chirpstack, `application/app-1/device/${eui}/event/up/more`)).toBe(false);
    expect(canPublish(chirpstack, 'dev/S1/L1/up')).toBe(false);
    expect(canPublish(chirpstack, '/UIOT/S1/runtime')).toBe(false);
  });

  it('subscribes to downlink commands, with wildcards for application and devEUI only', () => {
    expect(canSubscribe(chirpstack, 'application/+/device/+/command/down', 1)).toBe(true);
    expect(canSubscribe(chirpstack, `application/app-1/device/${eui}/command/down`, 0)).toBe(true);
    expect(canSubscribe(chirpstack, 'application/+/device/+/command/down', 2)).toBe(false);
    expect(canSubscribe(chirpstack, 'application/#', 1)).toBe(false);
    expect(canSubscribe(chirpstack, 'application/+/device/+/event/+', 1)).toBe(false);
    expect(canSubscribe(chirpstack, 'dev/+/+/up', 1)).toBe(false);
  });

  it('is accepted as an identity over IPC', () => {
    expect(parseBrokerIdentity({ kind: 'chirpstack', extra: 1 })).toEqual({ kind: 'chirpstack' });
  });
});
