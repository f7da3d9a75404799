import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { meetsPasswordRule, PASSWORD_MIN_LENGTH } from '@uiot/contracts';
import { z } from 'zod';
import { parseFileStoreUrl, type S3Location } from './infra/files/file-store-url.ts';
import type { NbCommandSettings } from './infra/nbiot/index.ts';
import { jsonTemplateProblem } from './lib/json-template.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const port = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a port number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be between 1 and 65535' })
    .max(65535, { error: 'must be between 1 and 65535' })
    .default(fallback);

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''], { error: 'must be 1 or 0' })
  .default('0')
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      { error: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
    )
    .optional();

/** A shared secret: at least `min` (16) characters (never echoed in configuration errors). */
const secretSetting = (min = 16) =>
  z
    .string()
    .min(min, { error: `must have at least ${min} characters` })
    .max(256, { error: 'must have at most 256 characters' })
    .optional();

/** Names proxy-addr (Fastify's trustProxy) gives to address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The proxies whose X-Forwarded-Proto/-Host/-For are believed: their addresses, CIDR ranges or `loopback`;
 * unset, none. Never "every peer": a client could then claim any address and slip past the sign-in
 * throttling per address, and write any address into the logs.
 */
const trustedProxies = z
  .string()
  .trim()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every(isProxyAddress), {
    error:
      "must be the proxy's addresses: comma-separated IP addresses or CIDR ranges (e.g. 10.0.0.5,10.1.0.0/16), or loopback",
  });

/** A file the server reads at start-up (checked then, see tls-files.ts). */
const filePath = z.string().trim().min(1).optional();

/** An S3-compatible object store for the files (never echoed: the URL holds the secret key). */
const fileStoreUrl = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const read = parseFileStoreUrl(value);
    if (read.ok) return read.location;
    ctx.addIssue({ code: 'custom', message: read.problem });
    return z.NEVER;
  })
  .optional();

/** The channels of alarm notifications sent through an HTTP webhook. */
export const WEBHOOK_CHANNELS = ['sms', 'push'] as const;
export type WebhookChannel = (typeof WEBHOOK_CHANNELS)[number];

/** What a webhook body template may name (docs/alarms.md, "Notifications"). */
export const NOTICE_PLACEHOLDERS = [
  'message',
  'subject',
  'phone',
  'email',
  'staffId',
  'staffName',
  'alarmId',
  'severity',
  'occasion',
  'device',
  'time',
] as const;

/** The body a webhook gets when its template is not set. */
export const DEFAULT_WEBHOOK_BODY: Record<WebhookChannel, string> = {
  sms: '{"to":"{phone}","text":"{message}"}',
  push: '{"to":"{staffId}","title":"{subject}","text":"{message}"}',
};

/** A webhook body template: JSON with placeholders inside its strings. */
const webhookBody = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = jsonTemplateProblem(value, NOTICE_PLACEHOLDERS);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .optional();

/** Environment variables of ARCHITECTURE §6 (and a few of the server's own), validated at start-up. */
const environment = z.object({
  PORT: port(8686),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  MQTT_URL: url(['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:']),
  MQTT_PORT: port(1883),
  MQTT_WS_PORT: port(8083),
  SMTP_URL: url(['smtp:', 'smtps:']),
  SMS_WEBHOOK_URL: url(['http:', 'https:']),
  SMS_WEBHOOK_SECRET: secretSetting(),
  SMS_WEBHOOK_BODY: webhookBody,
  PUSH_WEBHOOK_URL: url(['http:', 'https:']),
  PUSH_WEBHOOK_SECRET: secretSetting(),
  PUSH_WEBHOOK_BODY: webhookBody,
  FILE_STORE_URL: fileStoreUrl,
  // The rule every chosen password meets (the console's change-password rule, spec §5).
  ADMIN_PASSWORD: z
    .string()
    .min(PASSWORD_MIN_LENGTH, { error: `must have at least ${PASSWORD_MIN_LENGTH} characters`, abort: true })
    .max(128, { error: 'must have at most 128 characters', abort: true })
    .refine(meetsPasswordRule, { error: 'must have upper case letters, lower case letters and digits' })
    .optional(),
  DEMO: flag,
  TCP_DIRECT_PORT: port(9883),
  CHIRPSTACK_MQTT_PASSWORD: secretSetting(),
  NB_CHINATELECOM_SECRET: secretSetting(),
  NB_CHINAUNICOM_SECRET: secretSetting(),
  NB_CHINAMOBILE_SECRET: secretSetting(),
  NB_CHINATELECOM_API_URL: url(['http:', 'https:']),
  NB_CHINATELECOM_APP_KEY: z.string().trim().min(1).max(128).optional(),
  // CTWing's App Secrets are shorter than our own shared secrets.
  NB_CHINATELECOM_APP_SECRET: secretSetting(8),
  NB_CHINATELECOM_MASTER_KEY: secretSetting(),
  NB_CHINATELECOM_PRODUCT_ID: z
    .string()
    .trim()
    .regex(/^\d{1,18}$/, { error: 'must be a number' })
    .optional(),
  NB_CHINAUNICOM_API_URL: url(['http:', 'https:']),
  NB_CHINAUNICOM_APP_ID: z.string().trim().min(1).max(128).optional(),
  NB_CHINAUNICOM_APP_SECRET: secretSetting(8),
  NB_CHINAUNICOM_COMMAND_CALLBACK_URL: url(['http:', 'https:']),
  NB_CHINAMOBILE_API_URL: url(['http:', 'https:']),
  NB_CHINAMOBILE_PRODUCT_ID: z
    .string()
    .trim()
    .regex(/^\d{1,18}$/, { error: 'must be a number' })
    .optional(),
  NB_CHINAMOBILE_ACCESS_KEY: secretSetting().refine(
    (v) => v === undefined || /^[A-Za-z0-9+/]+={0,2}$/.test(v),
    {
      error: 'must be the base64 access key OneNET shows',
    },
  ),
  MQTT_SHARED_SUBSCRIPTION: z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''], { error: 'must be 1 or 0' })
    .default('1')
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v)),
  MQTT_DEVICE_AUTH: z
    .enum(['dynsec', 'broker'], { error: 'must be dynsec (Mosquitto dynamic security) or broker' })
    .default('dynsec'),
  HISTORY_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int({ error: 'must be a whole number of days' })
    .min(1, { error: 'must be between 1 and 3650' })
    .max(3650, { error: 'must be between 1 and 3650' })
    .default(180),
  INGEST_REPEAT_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(0, { error: 'must be between 0 and 10' })
    .max(10, { error: 'must be between 0 and 10' })
    .optional(),
  COMMAND_RETRANSMIT_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(1, { error: 'must be between 1 and 3600' })
    .max(3600, { error: 'must be between 1 and 3600' })
    .default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z
    .enum(['auto', 'json', 'pretty'], {
      error: 'must be auto (readable lines on a terminal, JSON otherwise), json or pretty',
    })
    .default('auto'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((o) => /^https?:\/\/[^/\s]+$/.test(o)), {
      error: 'must be a comma-separated list of origins like https://console.example.com',
    }),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(120),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  TRUSTED_PROXIES: trustedProxies,
  API_DOCS: flag,
  TLS_CERT: filePath,
  TLS_KEY: filePath,
  WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
});

export type Environment = z.infer<typeof environment>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  mqttUrl: string | undefined;
  mqttPort: number;
  mqttWsPort: number;
  smtpUrl: string | undefined;
  /** The HTTP webhooks of the SMS and app push notifications of alarms; an unset one is not configured. */
  noticeWebhooks: Partial<Record<WebhookChannel, NoticeWebhook>>;
  /** The object store of FILE_STORE_URL; unset: files are kept in `DATA_DIR/files`. */
  fileStore: S3Location | undefined;
  adminPassword: string | undefined;
  demo: boolean;
  /** TcpDirect locks (length-prefixed JSON frames). */
  tcpDirectPort: number;
  /** Password of the ChirpStack integration's account on the embedded broker (username `chirpstack`). */
  chirpstackMqttPassword: string | undefined;
  /** Shared secrets of the NB-IoT platforms' callbacks; an unset one keeps that callback closed. */
  nbCallbackSecrets: { ChinaTelecom?: string; ChinaUnicom?: string; ChinaMobile?: string };
  /** The NB-IoT platforms' command APIs (NB_CHINA*_API_URL); an unset one refuses its devices' commands. */
  nbCommandPlatforms?: NbCommandSettings;
  /** How devices are admitted by an external broker: the server administers Mosquitto's dynamic security, or the broker's own configuration decides. */
  mqttDeviceAuth: 'dynsec' | 'broker';
  /**
   * Subscribe to device topics as `$share/uiot/…` on an external broker, so that several server instances
   * split the devices' traffic (default on; a single instance may turn it off).
   */
  mqttSharedSubscription: boolean;
  historyRetentionDays: number;
  /**
   * A report repeating what its device's last write set leaves the runtime row unwritten for this long
   * (its time follows); unset: 5 s. On PostgreSQL only while the instance ingests alone (`SoleWriterLease`).
   */
  ingestRepeatSeconds: number | undefined;
  /** How long a sent device command may go unanswered before it is sent again. */
  commandRetransmitSeconds: number;
  logLevel: Environment['LOG_LEVEL'];
  /** How log lines are written: `auto` = readable on a terminal, JSON lines otherwise. */
  logFormat: Environment['LOG_FORMAT'];
  corsOrigins: string[];
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
  /** Proxies (addresses, CIDR ranges) whose forwarded protocol, host and client address are believed; empty: none. */
  trustedProxies: string[];
  /** Serve the OpenAPI document and its page at /api/docs (API_DOCS; off by default: it maps the whole API). */
  apiDocs: boolean;
  /** PEM files of the certificate and its key: the console, the API and the browsers' broker listener use HTTPS/WSS. */
  tls: { certFile: string; keyFile: string } | undefined;
  webDistDir: string;
}

/** Where and how an alarm notification channel posts (SMS_WEBHOOK_*, PUSH_WEBHOOK_*). */
export interface NoticeWebhook {
  url: string;
  /** Signs each body (HMAC-SHA256, header X-UIOT-Signature); unset: bodies go unsigned. */
  secret: string | undefined;
  /** JSON body with placeholders (DEFAULT_WEBHOOK_BODY when not set). */
  bodyTemplate: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** A URL as an error line may repeat it: whatever stands between `//` and `@` (user, password) left out. */
export function withoutUserInfo(text: string): string {
  return text.replace(/(\/\/)[^/?#\s]*@/, '$1***@');
}

/**
 * The NB-IoT command APIs: a platform is configured by its URL, which then needs all its credentials; a
 * credential without the URL is a mistake too.
 */
function nbCommandSettings(e: Environment): NbCommandSettings {
  const platforms = [
    {
      url: 'NB_CHINATELECOM_API_URL',
      needs: ['NB_CHINATELECOM_APP_KEY', 'NB_CHINATELECOM_APP_SECRET', 'NB_CHINATELECOM_MASTER_KEY'],
      optional: ['NB_CHINATELECOM_PRODUCT_ID'],
    },
    {
      url: 'NB_CHINAUNICOM_API_URL',
      needs: ['NB_CHINAUNICOM_APP_ID', 'NB_CHINAUNICOM_APP_SECRET'],
      optional: ['NB_CHINAUNICOM_COMMAND_CALLBACK_URL'],
    },
    {
      url: 'NB_CHINAMOBILE_API_URL',
      needs: ['NB_CHINAMOBILE_PRODUCT_ID', 'NB_CHINAMOBILE_ACCESS_KEY'],
      optional: [],
    },
  ] as const;
  const problems: string[] = [];
  for (const platform of platforms) {
    const given = (key: keyof Environment) => e[key] !== undefined;
    if (given(platform.url)) {
      for (const key of platform.needs) {
        if (!given(key)) problems.push(`Configuration error: ${key} must be set too when ${platform.url} is`);
      }
    } else {
      const stray = [...platform.needs, ...platform.optional].find(given);
      if (stray) {
        problems.push(
          `Configuration error: ${platform.url} must be set too when ${stray} is (the platform's command API)`,
        );
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...(e.NB_CHINATELECOM_API_URL
      ? {
          ChinaTelecom: {
            baseUrl: e.NB_CHINATELECOM_API_URL,
            appKey: e.NB_CHINATELECOM_APP_KEY!,
            appSecret: e.NB_CHINATELECOM_APP_SECRET!,
            masterKey: e.NB_CHINATELECOM_MASTER_KEY!,
            productId: e.NB_CHINATELECOM_PRODUCT_ID,
          },
        }
      : {}),
    ...(e.NB_CHINAUNICOM_API_URL
      ? {
          ChinaUnicom: {
            baseUrl: e.NB_CHINAUNICOM_API_URL,
            appId: e.NB_CHINAUNICOM_APP_ID!,
            secret: e.NB_CHINAUNICOM_APP_SECRET!,
            callbackUrl: e.NB_CHINAUNICOM_COMMAND_CALLBACK_URL,
          },
        }
      : {}),
    ...(e.NB_CHINAMOBILE_API_URL
      ? {
          ChinaMobile: {
            baseUrl: e.NB_CHINAMOBILE_API_URL,
            productId: e.NB_CHINAMOBILE_PRODUCT_ID!,
            accessKey: e.NB_CHINAMOBILE_ACCESS_KEY!,
          },
        }
      : {}),
  };
}

/** Reads the configuration; every bad variable is reported as one line naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(
    Object.keys(environment.shape).flatMap((key) => {
      const value = env[key];
      return value === undefined || value === '' ? [] : [[key, value]];
    }),
  );
  const parsed = environment.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? '');
        const shown =
          key === 'ADMIN_PASSWORD' ||
          key === 'FILE_STORE_URL' ||
          key.endsWith('_WEBHOOK_URL') ||
          key.endsWith('_SECRET') ||
          key.endsWith('_KEY') ||
          key.endsWith('_PASSWORD')
            ? ''
            : ` (got "${key.endsWith('_URL') ? withoutUserInfo(env[key] ?? '') : (env[key] ?? '')}")`;
        return `Configuration error: ${key} ${issue.message}${shown}`;
      }),
    );
  }
  const e = parsed.data;
  if ((e.TLS_CERT === undefined) !== (e.TLS_KEY === undefined)) {
    const missing = e.TLS_CERT === undefined ? 'TLS_CERT' : 'TLS_KEY';
    const given = missing === 'TLS_CERT' ? 'TLS_KEY' : 'TLS_CERT';
    throw new ConfigError([
      `Configuration error: ${missing} must be set too when ${given} is (the certificate and its key, both PEM files)`,
    ]);
  }
  const noticeWebhooks: Partial<Record<WebhookChannel, NoticeWebhook>> = {};
  for (const channel of WEBHOOK_CHANNELS) {
    const prefix = channel === 'sms' ? 'SMS' : 'PUSH';
    const url = channel === 'sms' ? e.SMS_WEBHOOK_URL : e.PUSH_WEBHOOK_URL;
    const secret = channel === 'sms' ? e.SMS_WEBHOOK_SECRET : e.PUSH_WEBHOOK_SECRET;
    const body = channel === 'sms' ? e.SMS_WEBHOOK_BODY : e.PUSH_WEBHOOK_BODY;
    if (url) noticeWebhooks[channel] = { url, secret, bodyTemplate: body || DEFAULT_WEBHOOK_BODY[channel] };
    else if (secret !== undefined || body !== undefined) {
      const given = secret !== undefined ? `${prefix}_WEBHOOK_SECRET` : `${prefix}_WEBHOOK_BODY`;
      throw new ConfigError([
        `Configuration error: ${prefix}_WEBHOOK_URL must be set too when ${given} is (where the ${channel === 'sms' ? 'SMS' : 'app push'} notifications are posted)`,
      ]);
    }
  }
  const nbCommandPlatforms = nbCommandSettings(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_PORT,
    mqttWsPort: e.MQTT_WS_PORT,
    smtpUrl: e.SMTP_URL,
    noticeWebhooks,
    fileStore: e.FILE_STORE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    demo: e.DEMO,
    tcpDirectPort: e.TCP_DIRECT_PORT,
    chirpstackMqttPassword: e.CHIRPSTACK_MQTT_PASSWORD,
    nbCallbackSecrets: {
      ...(e.NB_CHINATELECOM_SECRET ? { ChinaTelecom: e.NB_CHINATELECOM_SECRET } : {}),
      ...(e.NB_CHINAUNICOM_SECRET ? { ChinaUnicom: e.NB_CHINAUNICOM_SECRET } : {}),
      ...(e.NB_CHINAMOBILE_SECRET ? { ChinaMobile: e.NB_CHINAMOBILE_SECRET } : {}),
    },
    nbCommandPlatforms,
    mqttDeviceAuth: e.MQTT_DEVICE_AUTH,
    mqttSharedSubscription: e.MQTT_SHARED_SUBSCRIPTION,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    ingestRepeatSeconds: e.INGEST_REPEAT_SECONDS,
    commandRetransmitSeconds: e.COMMAND_RETRANSMIT_SECONDS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    corsOrigins: e.CORS_ORIGINS,
    sessionIdleSeconds: e.SESSION_IDLE_MINUTES * 60,
    sessionMaxSeconds: e.SESSION_MAX_HOURS * 3600,
    trustedProxies: e.TRUSTED_PROXIES,
    apiDocs: e.API_DOCS,
    tls:
      e.TLS_CERT && e.TLS_KEY
        ? { certFile: path.resolve(e.TLS_CERT), keyFile: path.resolve(e.TLS_KEY) }
        : undefined,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
  };
}
