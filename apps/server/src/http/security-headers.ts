import { isIP } from 'node:net';

/**
 * The security headers of one reply (ARCHITECTURE §2: the console must work over plain HTTP from any
 * address on an operator's network). Plain functions of what the request says, no I/O.
 *
 * Over plain HTTP a browser treats every origin but localhost as untrustworthy: `upgrade-insecure-requests`
 * would rewrite the console's own scripts to https:// (a blank page), and HSTS, Cross-Origin-Opener-Policy
 * and Origin-Agent-Cluster are ignored there with an error in the console. They are sent only when the
 * console is really served over HTTPS.
 */

/** What the headers of one reply depend on. */
export interface SecurityContext {
  /** The request reached the console over HTTPS: directly, or through a trusted proxy (TRUSTED_PROXIES). */
  secure: boolean;
  /** The host the browser addressed (`name[:port]`, the Host header or a trusted X-Forwarded-Host): untrusted. */
  host: string | undefined;
  /** The broker's WebSocket listener, on the console's host name (see runtimeConfigFor in app.ts). */
  mqttWebSocket: { port: number; path: string };
  /** Path of the per-user notification socket on the console's own origin. */
  notificationPath: string;
}

/** A host name that a CSP source expression can carry (letters, digits, hyphens in dot-separated labels). */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const PORT = /^[0-9]{1,5}$/;
const SOURCE_PATH = /^\/[A-Za-z0-9._~/-]*$/;

/** A year: browsers keep to HTTPS for this long after they have seen the console over HTTPS once. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * The host the browser addressed: a DNS name or IPv4 address (`name`), which a policy can carry, or an IPv6
 * literal (`ipv6`), which CSP's grammar cannot express (Chromium drops such a source as invalid).
 */
export type ConsoleAddress =
  | { kind: 'name'; hostname: string; port: number | undefined }
  | { kind: 'ipv6'; port: number | undefined };

const IPV6_HOST = /^\[([0-9a-fA-F:.]+)\](?::([0-9]{1,5}))?$/;

function portOf(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  if (!PORT.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : null;
}

/**
 * Reads the Host the browser sent (`name[:port]`, `[ipv6][:port]`); anything else (characters a header value
 * must not carry, an impossible port, an unbracketed IPv6 address) is null. The port is absent when the
 * browser used the scheme's default one.
 */
export function consoleAddress(host: string | undefined): ConsoleAddress | null {
  if (!host) return null;
  const ipv6 = IPV6_HOST.exec(host);
  if (ipv6) {
    const port = portOf(ipv6[2]);
    return isIP(ipv6[1]!) === 6 && port !== null ? { kind: 'ipv6', port } : null;
  }
  const separator = host.lastIndexOf(':');
  const name = (separator === -1 ? host : host.slice(0, separator)).toLowerCase().replace(/\.$/, '');
  const port = portOf(separator === -1 ? undefined : host.slice(separator + 1));
  if (!HOST_NAME.test(name) || port === null) return null;
  return { kind: 'name', hostname: name, port };
}

/** The WebSocket sources of connect-src: the notification socket and the broker on the console's host. */
function socketSources(context: SecurityContext, address: ConsoleAddress | null): string[] {
  const scheme = context.secure ? 'wss' : 'ws';
  const { port, path } = context.mqttWebSocket;
  const valid =
    Number.isInteger(port) &&
    port >= 1 &&
    port <= 65_535 &&
    SOURCE_PATH.test(path) &&
    SOURCE_PATH.test(context.notificationPath);
  if (!address || !valid) return [];
  // An IPv6 address cannot be named: the browser may open WebSockets of the page's security anywhere.
  if (address.kind === 'ipv6') return [`${scheme}:`];
  const origin = `${scheme}://${address.hostname}`;
  return [
    // 'self' covers the same origin's WebSocket in current browsers; named for those that do not.
    `${origin}${address.port ? `:${address.port}` : ''}${context.notificationPath}`,
    `${origin}:${port}${path}`,
  ];
}

/**
 * Content-Security-Policy of the console. `connect-src` names the console's own origin and the broker's
 * WebSocket endpoint on the host the page was loaded from, nothing else (an IPv6 address excepted, above); `worker-src` allows the Blob
 * worker mqtt.js keeps its keepalive timer in (timers of background tabs are throttled, workers' are not).
 */
export function contentSecurityPolicy(context: SecurityContext): string {
  const sockets = socketSources(context, consoleAddress(context.host));
  const directives: Array<[string, ...string[]]> = [
    ['default-src', "'self'"],
    ['base-uri', "'self'"],
    ['script-src', "'self'"],
    ['script-src-attr', "'none'"],
    // antd writes its component styles at run time.
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...sockets],
    ['worker-src', "'self'", 'blob:'],
    ['object-src', "'none'"],
    ['frame-ancestors', "'self'"],
    ['form-action', "'self'"],
  ];
  if (context.secure) directives.push(['upgrade-insecure-requests']);
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** The headers that depend on how the console was reached (helmet sends the fixed ones). */
export function securityHeaders(context: SecurityContext): Record<string, string> {
  const headers: Record<string, string> = { 'content-security-policy': contentSecurityPolicy(context) };
  if (context.secure) {
    // Not includeSubDomains: the console does not decide for the other hosts of the operator's domain.
    headers['strict-transport-security'] = `max-age=${HSTS_MAX_AGE_SECONDS}`;
    headers['cross-origin-opener-policy'] = 'same-origin';
    headers['origin-agent-cluster'] = '?1';
  }
  return headers;
}

/** The policy of the API documentation page (its own, with hashes of its inline scripts) made fit for HTTP. */
export function withoutUpgradeDirective(policy: string): string {
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive.toLowerCase() !== 'upgrade-insecure-requests')
    .join('; ');
}
