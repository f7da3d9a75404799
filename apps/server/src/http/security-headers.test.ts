import { describe, expect, it } from 'vitest';
import { cspDirective } from '../../test/support/csp.ts';
import {
  consoleAddress,
  contentSecurityPolicy,
  type SecurityContext,
  securityHeaders,
  withoutUpgradeDirective,
} from './security-headers.ts';

const plain: SecurityContext = {
  secure: false,
  host: '10.20.0.7:8686',
  mqttWebSocket: { port: 8083, path: '/mqtt' },
  notificationPath: '/websocket',
};
const secure: SecurityContext = { ...plain, secure: true, host: 'console.example.com' };

describe('consoleAddress', () => {
  it.each([
    ['console.test:8686', { kind: 'name', hostname: 'console.test', port: 8686 }],
    ['10.20.0.7', { kind: 'name', hostname: '10.20.0.7', port: undefined }],
    ['Console.Example.COM.', { kind: 'name', hostname: 'console.example.com', port: undefined }],
    ['lock-console-01:65535', { kind: 'name', hostname: 'lock-console-01', port: 65535 }],
    ['[::1]:8686', { kind: 'ipv6', port: 8686 }],
    ['[fd00::5]', { kind: 'ipv6', port: undefined }],
  ])('reads %s', (host, expected) => {
    expect(consoleAddress(host)).toEqual(expected);
  });

  it.each([
    undefined,
    '',
    'fe80::1',
    '[::1]:0',
    '[not::an:address:at:all:1:2:3]',
    '[::1] x',
    'console.test:0',
    'console.test:70000',
    'console.test:',
    'console.test:80a',
    'evil.example; script-src *',
    'a b',
    "console.test'",
    'under_score.local',
    '-leading.example',
    'x'.repeat(64),
    '*.example.com',
    'console.test/path',
  ])('refuses %j', (host) => {
    expect(consoleAddress(host)).toBeNull();
  });
});

describe('contentSecurityPolicy', () => {
  it('names only the console origin and its broker endpoint for WebSockets, over plain HTTP', () => {
    const policy = contentSecurityPolicy(plain);
    expect(cspDirective(policy, 'connect-src')).toEqual([
      "'self'",
      'ws://10.20.0.7:8686/websocket',
      'ws://10.20.0.7:8083/mqtt',
    ]);
    expect(policy).not.toMatch(/\bws:(?!\/)|\bwss:/);
  });

  it('asks for no upgrade of the console own http:// resources over plain HTTP', () => {
    expect(contentSecurityPolicy(plain)).not.toContain('upgrade-insecure-requests');
    expect(cspDirective(contentSecurityPolicy(secure), 'upgrade-insecure-requests')).toEqual([]);
  });

  it('uses wss over HTTPS, on the default port when the browser named none', () => {
    expect(cspDirective(contentSecurityPolicy(secure), 'connect-src')).toEqual([
      "'self'",
      'wss://console.example.com/websocket',
      'wss://console.example.com:8083/mqtt',
    ]);
  });

  it('lets mqtt.js start its timer worker from a Blob, and nothing from other hosts', () => {
    expect(cspDirective(contentSecurityPolicy(plain), 'worker-src')).toEqual(["'self'", 'blob:']);
    expect(cspDirective(contentSecurityPolicy(plain), 'script-src')).toEqual(["'self'"]);
    expect(cspDirective(contentSecurityPolicy(plain), 'object-src')).toEqual(["'none'"]);
    expect(cspDirective(contentSecurityPolicy(plain), 'default-src')).toEqual(["'self'"]);
  });

  it('opens WebSockets of the page security to any host only for an IPv6 address, which CSP cannot name', () => {
    const plainPolicy = contentSecurityPolicy({ ...plain, host: '[fd00::5]:8686' });
    expect(cspDirective(plainPolicy, 'connect-src')).toEqual(["'self'", 'ws:']);
    const securePolicy = contentSecurityPolicy({ ...secure, host: '[fd00::5]' });
    expect(cspDirective(securePolicy, 'connect-src')).toEqual(["'self'", 'wss:']);
  });

  it.each([
    'evil.example:8686; connect-src *',
    "10.0.0.1:8686 'unsafe-eval'",
    '[::1]:8686; script-src *',
    undefined,
  ])('keeps to the console own origin when the host %j cannot be named', (host) => {
    const policy = contentSecurityPolicy({ ...plain, host });
    expect(cspDirective(policy, 'connect-src')).toEqual(["'self'"]);
    expect(policy.split(';')).toHaveLength(contentSecurityPolicy(plain).split(';').length);
    expect(policy).not.toContain('evil');
    expect(policy).not.toContain('unsafe-eval');
  });

  it.each([
    { port: 0, path: '/mqtt' },
    { port: 70_000, path: '/mqtt' },
    { port: 8083, path: 'mqtt' },
    { port: 8083, path: '/mq tt;' },
  ])('names no broker endpoint that is not one (%j)', (mqttWebSocket) => {
    expect(cspDirective(contentSecurityPolicy({ ...plain, mqttWebSocket }), 'connect-src')).toEqual([
      "'self'",
    ]);
  });
});

describe('securityHeaders', () => {
  it('sends no HSTS, opener policy or agent cluster over plain HTTP', () => {
    expect(Object.keys(securityHeaders(plain))).toEqual(['content-security-policy']);
  });

  it('sends HSTS and the secure-context headers over HTTPS', () => {
    expect(securityHeaders(secure)).toMatchObject({
      'strict-transport-security': 'max-age=31536000',
      'cross-origin-opener-policy': 'same-origin',
      'origin-agent-cluster': '?1',
    });
  });
});

describe('withoutUpgradeDirective', () => {
  it('removes only upgrade-insecure-requests', () => {
    expect(
      withoutUpgradeDirective("default-src 'self'; script-src 'self' 'sha256-x'; upgrade-insecure-requests;"),
    ).toBe("default-src 'self'; script-src 'self' 'sha256-x'");
  });
});
