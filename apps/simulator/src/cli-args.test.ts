import { describe, expect, it } from 'vitest';
import { DEFAULT_DEVICES, parseCliArgs, parseHostPort } from './cli-args.ts';

function error(argv: string[]): string {
  const parsed = parseCliArgs(argv);
  if (parsed.kind !== 'error') throw new Error(`expected a refusal of ${argv.join(' ')}, got ${parsed.kind}`);
  return parsed.message;
}

function options(argv: string[], env: Record<string, string> = {}) {
  const parsed = parseCliArgs(argv, env);
  if (parsed.kind !== 'run')
    throw new Error(`expected options for ${argv.join(' ')}, got ${JSON.stringify(parsed)}`);
  return parsed.options;
}

describe('parseCliArgs', () => {
  it('runs a behaviour fleet of generated devices with the defaults', () => {
    expect(options([])).toEqual({
      devices: DEFAULT_DEVICES,
      url: 'mqtt://127.0.0.1:1883',
      protocol: 'mqtt',
      station: 'UIOT-001',
      prefix: 'SIM-',
      tcp: { host: '127.0.0.1', port: 9883 },
      chirpstack: { username: 'chirpstack', password: '' },
    });
  });

  it('reads the benchmark command line', () => {
    const parsed = options([
      '--devices',
      '1000',
      '--rate',
      '20000',
      '--url',
      'mqtt://10.0.0.5:1884',
      '--duration',
      '60',
    ]);
    expect(parsed).toMatchObject({
      devices: 1000,
      rate: 20_000,
      url: 'mqtt://10.0.0.5:1884',
      durationSeconds: 60,
    });
  });

  it('reads every other option', () => {
    const parsed = options(
      [
        '--protocol=mixed',
        '--station',
        'S7',
        '--prefix',
        'LK-',
        '--tcp',
        '[::1]:9000',
        '--application-id',
        'app-1',
        '--chirpstack-username',
        'cs',
        '--heartbeat',
        '30',
        '--time-scale',
        '60',
        '--seed',
        '12',
        '--concurrency',
        '20',
      ],
      { CHIRPSTACK_MQTT_PASSWORD: 'from-env' },
    );
    expect(parsed).toMatchObject({
      protocol: 'mixed',
      station: 'S7',
      prefix: 'LK-',
      tcp: { host: '::1', port: 9000 },
      chirpstack: { username: 'cs', password: 'from-env', applicationId: 'app-1' },
      heartbeatSeconds: 30,
      timeScale: 60,
      seed: 12,
      concurrency: 20,
    });
    expect(
      options(['--chirpstack-password', 'x', '--application-id', 'a', '--protocol', 'chirpstack'], {
        CHIRPSTACK_MQTT_PASSWORD: 'env',
      }).chirpstack.password,
    ).toBe('x');
  });

  it('takes devices from a fleet file instead of generating them', () => {
    const parsed = options(['--fleet', 'fleet.json', '--rate', '50']);
    expect(parsed.fleetFile).toBe('fleet.json');
    expect(parsed.devices).toBeUndefined();
  });

  it('answers --help', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--devices', '0'], '--devices must be an integer from 1 to 100000, not "0"'],
    [['--devices', '2.5'], '--devices must be an integer'],
    [['--devices', 'many'], '--devices must be an integer'],
    [['--devices', ''], '--devices must be an integer'],
    [['--devices', '100001'], '--devices must be an integer'],
    [['--rate', '0'], '--rate must be a number above 0'],
    [['--rate=-5'], '--rate must be a number above 0'],
    [['--rate', 'fast'], '--rate must be a number above 0'],
    [['--duration', '0'], '--duration must be a number above 0'],
    [['--protocol', 'zigbee'], '--protocol must be one of mqtt, chirpstack, tcp, mixed'],
    [['--protocol', 'chirpstack'], '--application-id is required for --protocol chirpstack'],
    [['--protocol', 'mixed'], '--application-id is required for --protocol mixed'],
    [['--station', 'a/b'], '--station must be'],
    [['--prefix', 'SIM+'], '--prefix must be'],
    [['--url', 'http://broker'], '--url: must be an mqtt://'],
    [['--url', 'not a url'], '--url: not a URL'],
    [['--tcp', 'localhost'], '--tcp must be HOST:PORT'],
    [['--tcp', 'localhost:70000'], '--tcp must be HOST:PORT'],
    [['--fleet', 'f.json', '--devices', '10'], '--devices describes generated devices'],
    [['--fleet', 'f.json', '--protocol', 'tcp'], '--protocol describes generated devices'],
    [['--rate', '100', '--heartbeat', '10'], '--heartbeat is for behaviour mode'],
    [['--rate', '100', '--time-scale', '10'], '--time-scale is for behaviour mode'],
    [['--seed=-1'], '--seed must be an integer'],
    [['--concurrency', '0'], '--concurrency must be an integer'],
    [['--devices'], "Option '--devices <value>' argument missing"],
    [['--frobnicate'], "Unknown option '--frobnicate'"],
    [['extra'], 'extra'],
  ])('refuses %j', (argv, message) => {
    expect(error(argv)).toContain(message);
  });

  it('never echoes a password in a refusal', () => {
    expect(error(['--chirpstack-password', 's3cret', '--devices', 'x'])).not.toContain('s3cret');
  });
});

describe('parseHostPort', () => {
  it('reads host:port and [v6]:port', () => {
    expect(parseHostPort('127.0.0.1:9883')).toEqual({ host: '127.0.0.1', port: 9883 });
    expect(parseHostPort('lock-gw.local:1')).toEqual({ host: 'lock-gw.local', port: 1 });
    expect(parseHostPort('[::1]:65535')).toEqual({ host: '::1', port: 65_535 });
    expect(parseHostPort('::1:80')).toBeUndefined();
    expect(parseHostPort('host:0')).toBeUndefined();
    expect(parseHostPort(':80')).toBeUndefined();
  });
});
