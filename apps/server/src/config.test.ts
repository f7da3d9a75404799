import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WEBHOOK_BODY, loadConfig, withoutUserInfo } from './config.ts';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8686,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      mqttUrl: undefined,
      mqttPort: 1883,
      mqttWsPort: 8083,
      smtpUrl: undefined,
      adminPassword: undefined,
      demo: false,
      logLevel: 'info',
      logFormat: 'auto',
      corsOrigins: [],
      sessionIdleSeconds: 120 * 60,
      sessionMaxSeconds: 12 * 3600,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', DEMO: '' }).port).toBe(8686);
  });

  it('reads valid values', () => {
    const config = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u@db:5432/uiot',
      MQTT_URL: 'mqtt://broker:1883',
      SMTP_URL: 'smtp://mail:25',
      DEMO: 'yes',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Secret-123',
      CORS_ORIGINS: 'https://a.example.com, http://b.example.com:8080',
      SESSION_IDLE_MINUTES: '5',
      SESSION_MAX_HOURS: '2',
    });
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://u@db:5432/uiot',
      mqttUrl: 'mqtt://broker:1883',
      smtpUrl: 'smtp://mail:25',
      demo: true,
      logLevel: 'warn',
      adminPassword: 'Secret-123',
      corsOrigins: ['https://a.example.com', 'http://b.example.com:8080'],
      sessionIdleSeconds: 300,
      sessionMaxSeconds: 7200,
    });
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '0'],
    ['PORT', '80.5'],
    ['MQTT_PORT', 'x'],
    ['DATABASE_URL', 'http://x'],
    ['DATABASE_URL', 'not a url'],
    ['MQTT_URL', 'foo'],
    ['SMTP_URL', 'http://mail'],
    ['DEMO', 'maybe'],
    ['API_DOCS', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'colour'],
    ['CORS_ORIGINS', 'console.example.com'],
    ['CORS_ORIGINS', 'https://ok.example.com,ftp://bad.example.com'],
    ['SESSION_IDLE_MINUTES', '0'],
    ['TCP_DIRECT_PORT', '65536'],
    ['MQTT_DEVICE_AUTH', 'anonymous'],
    ['MQTT_SHARED_SUBSCRIPTION', 'sometimes'],
    ['HISTORY_RETENTION_DAYS', '0'],
    ['HISTORY_RETENTION_DAYS', '4000'],
    ['COMMAND_RETRANSMIT_SECONDS', '0'],
    ['COMMAND_RETRANSMIT_SECONDS', '2.5'],
    ['INGEST_REPEAT_SECONDS', '-1'],
    ['INGEST_REPEAT_SECONDS', '11'],
    ['INGEST_REPEAT_SECONDS', '1.5'],
    ['TRUSTED_PROXIES', '1'],
    ['TRUSTED_PROXIES', 'true'],
    ['TRUSTED_PROXIES', 'proxy.example.com'],
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
    ['TRUSTED_PROXIES', '10.0.0.1,10.0.0.300'],
    ['TRUSTED_PROXIES', '::1/129'],
  ])('rejects %s=%s with one line naming the variable and the value', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^Configuration error: ${name} `));
    expect(problems[0]).toContain(`"${value}"`);
  });

  it.each([
    ['DATABASE_URL', 'http://uiot:db-Passw0rd@db:5432/uiot', 'http://***@db:5432/uiot'],
    ['MQTT_URL', 'foo://server:mq-Passw0rd@broker', 'foo://***@broker'],
    ['SMTP_URL', 'http://mailer:smtp-Passw0rd@mail:25', 'http://***@mail:25'],
  ])('rejects %s without echoing the password in it', (name, value, shown) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`"${shown}"`);
    expect(problems[0]).not.toContain('Passw0rd');
  });

  it('reads the notification webhooks, with the default body where none is given', () => {
    const config = loadConfig({
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      SMS_WEBHOOK_SECRET: 'sms-secret-0123456789',
      PUSH_WEBHOOK_URL: 'http://push.example.com/',
      PUSH_WEBHOOK_BODY: '{"user":"{staffId}","body":"{message}","severity":"{severity}"}',
    });
    expect(config.noticeWebhooks).toEqual({
      sms: {
        url: 'https://sms.example.com/send',
        secret: 'sms-secret-0123456789',
        bodyTemplate: DEFAULT_WEBHOOK_BODY.sms,
      },
      push: {
        url: 'http://push.example.com/',
        secret: undefined,
        bodyTemplate: '{"user":"{staffId}","body":"{message}","severity":"{severity}"}',
      },
    });
    expect(loadConfig({}).noticeWebhooks).toEqual({});
  });

  it.each([
    ['SMS_WEBHOOK_BODY', '{"to":"{mobile}"}', '{mobile}'],
    ['PUSH_WEBHOOK_BODY', '{"to":{staffId}}', 'must be JSON'],
    ['PUSH_WEBHOOK_BODY', '"{message}"', 'must be a JSON object'],
  ])('rejects %s=%s naming what is wrong', (name, value, problem) => {
    const problems = problemsOf({
      SMS_WEBHOOK_URL: 'https://s.example.com',
      PUSH_WEBHOOK_URL: 'https://p.example.com',
      [name]: value,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^Configuration error: ${name} `));
    expect(problems[0]).toContain(problem);
  });

  it('refuses a webhook secret or body without its URL, and never echoes a webhook URL', () => {
    expect(problemsOf({ SMS_WEBHOOK_SECRET: 'sms-secret-0123456789' })).toEqual([
      'Configuration error: SMS_WEBHOOK_URL must be set too when SMS_WEBHOOK_SECRET is (where the SMS notifications are posted)',
    ]);
    expect(problemsOf({ PUSH_WEBHOOK_BODY: '{"a":"{message}"}' })[0]).toContain(
      'PUSH_WEBHOOK_URL must be set too',
    );
    const [problem] = problemsOf({ SMS_WEBHOOK_URL: 'ftp://gw.example.com/?key=Gateway-Key' });
    expect(problem).toMatch(
      /^Configuration error: SMS_WEBHOOK_URL must be a URL starting with http:\/\/ or https:\/\/$/,
    );
  });

  it('leaves out the user information of a URL, and nothing else', () => {
    expect(withoutUserInfo('postgres://u:p@db:5432/x?sslmode=require')).toBe(
      'postgres://***@db:5432/x?sslmode=require',
    );
    expect(withoutUserInfo('postgres://db:5432/x')).toBe('postgres://db:5432/x');
    expect(withoutUserInfo('mqtt://broker/a@b')).toBe('mqtt://broker/a@b');
    expect(withoutUserInfo('not a url')).toBe('not a url');
  });

  it.each([
    ['short', 'Ab1'],
    ['long', `Ab1-${'x'.repeat(200)}`],
    ['lower case only', 'correcthorsebattery'],
    ['digitless', 'Correct-Horse-Battery'],
  ])('rejects a %s ADMIN_PASSWORD without echoing it', (_label, password) => {
    const problems = problemsOf({ ADMIN_PASSWORD: password });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Configuration error: ADMIN_PASSWORD /);
    expect(problems[0]).not.toContain(password);
    expect(problems[0]).not.toContain(password.slice(0, 3));
  });

  it.each([
    'CHIRPSTACK_MQTT_PASSWORD',
    'NB_CHINATELECOM_SECRET',
    'NB_CHINAUNICOM_SECRET',
    'NB_CHINAMOBILE_SECRET',
  ])('rejects a short %s without echoing it', (name) => {
    const problems = problemsOf({ [name]: 'too-short-7' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^Configuration error: ${name} must have at least 16 characters`));
    expect(problems[0]).not.toContain('too-short');
  });

  describe('FILE_STORE_URL', () => {
    it('is unset by default: files are kept in DATA_DIR/files', () => {
      expect(loadConfig({}).fileStore).toBeUndefined();
    });

    it('reads an S3-compatible store: endpoint, bucket, prefix, region, path style and the keys', () => {
      expect(
        loadConfig({
          FILE_STORE_URL: 's3+http://AKID:s%2Fcr%2Bt@minio.local:9000/uiot-files/prod?region=eu-west-1',
        }).fileStore,
      ).toEqual({
        endpoint: 'http://minio.local:9000',
        bucket: 'uiot-files',
        prefix: 'prod/',
        region: 'eu-west-1',
        forcePathStyle: true,
        accessKeyId: 'AKID',
        secretAccessKey: 's/cr+t',
      });
      expect(
        loadConfig({ FILE_STORE_URL: 's3://key:secret@s3.example.com/files?forcePathStyle=false' }).fileStore,
      ).toMatchObject({
        endpoint: 'https://s3.example.com',
        bucket: 'files',
        prefix: '',
        region: 'us-east-1',
        forcePathStyle: false,
      });
    });

    it.each([
      ['not a url', 'must be a URL like s3://'],
      ['https://key:secret-value@host/bucket', 'must start with s3:// (HTTPS) or s3+http://'],
      ['s3://host:9000/bucket', 'must carry the access key and the secret key'],
      ['s3://key@host/bucket', 'must carry the access key and the secret key'],
      ['s3://key:secret-value@host', 'must name a bucket'],
      ['s3://key:secret-value@host/Bad_Bucket', 'must name a bucket'],
      ['s3://key:secret-value@host/bucket?region=EU%20west', 'region must be'],
      ['s3://key:secret-value@host/bucket?forcePathStyle=yes', 'forcePathStyle must be true or false'],
      ['s3://key:secret-value@host/bucket?acl=public-read', 'unknown parameter "acl"'],
    ])('refuses %s with a clear message that never shows the secret', (value, message) => {
      const problems = problemsOf({ FILE_STORE_URL: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^Configuration error: FILE_STORE_URL /);
      expect(problems[0]).toContain(message);
      expect(problems[0]).not.toContain('secret-value');
      expect(problems[0]).not.toContain(value);
    });
  });

  it('reads the device bus settings', () => {
    const config = loadConfig({
      TCP_DIRECT_PORT: '19883',
      CHIRPSTACK_MQTT_PASSWORD: 'chirpstack-secret-1',
      NB_CHINATELECOM_SECRET: 'telecom-secret-0001',
      MQTT_DEVICE_AUTH: 'broker',
      MQTT_SHARED_SUBSCRIPTION: '0',
      HISTORY_RETENTION_DAYS: '30',
      COMMAND_RETRANSMIT_SECONDS: '45',
      INGEST_REPEAT_SECONDS: '0',
    });
    expect(config).toMatchObject({
      tcpDirectPort: 19883,
      chirpstackMqttPassword: 'chirpstack-secret-1',
      nbCallbackSecrets: { ChinaTelecom: 'telecom-secret-0001' },
      mqttDeviceAuth: 'broker',
      mqttSharedSubscription: false,
      historyRetentionDays: 30,
      commandRetransmitSeconds: 45,
      ingestRepeatSeconds: 0,
    });
    expect(loadConfig({})).toMatchObject({
      tcpDirectPort: 9883,
      chirpstackMqttPassword: undefined,
      nbCallbackSecrets: {},
      mqttDeviceAuth: 'dynsec',
      mqttSharedSubscription: true,
      historyRetentionDays: 180,
      commandRetransmitSeconds: 30,
      ingestRepeatSeconds: undefined,
    });
  });

  it("reads the NB-IoT platforms' command APIs; an unset one is not configured", () => {
    expect(loadConfig({}).nbCommandPlatforms).toEqual({});
    const accessKey = Buffer.from('onenet-access-key-of-product').toString('base64');
    const config = loadConfig({
      NB_CHINATELECOM_API_URL: 'https://ag-api.ctwing.cn',
      NB_CHINATELECOM_APP_KEY: 'dAaFG7DiPt8',
      NB_CHINATELECOM_APP_SECRET: 'aep-secret',
      NB_CHINATELECOM_MASTER_KEY: '0123456789abcdef0123456789abcdef',
      NB_CHINAUNICOM_API_URL: 'https://iot.example.cn:8743',
      NB_CHINAUNICOM_APP_ID: 'unicom-app',
      NB_CHINAUNICOM_APP_SECRET: 'unicom-secret',
      NB_CHINAMOBILE_API_URL: 'https://api.heclouds.com',
      NB_CHINAMOBILE_PRODUCT_ID: '23104',
      NB_CHINAMOBILE_ACCESS_KEY: accessKey,
    });
    expect(config.nbCommandPlatforms).toEqual({
      ChinaTelecom: {
        baseUrl: 'https://ag-api.ctwing.cn',
        appKey: 'dAaFG7DiPt8',
        appSecret: 'aep-secret',
        masterKey: '0123456789abcdef0123456789abcdef',
        productId: undefined,
      },
      ChinaUnicom: {
        baseUrl: 'https://iot.example.cn:8743',
        appId: 'unicom-app',
        secret: 'unicom-secret',
        callbackUrl: undefined,
      },
      ChinaMobile: { baseUrl: 'https://api.heclouds.com', productId: '23104', accessKey },
    });
  });

  it('refuses an NB-IoT command API without its credentials, or credentials without the API, echoing no key', () => {
    expect(
      problemsOf({ NB_CHINATELECOM_API_URL: 'https://ag-api.ctwing.cn', NB_CHINATELECOM_APP_KEY: 'k' }),
    ).toEqual([
      'Configuration error: NB_CHINATELECOM_APP_SECRET must be set too when NB_CHINATELECOM_API_URL is',
      'Configuration error: NB_CHINATELECOM_MASTER_KEY must be set too when NB_CHINATELECOM_API_URL is',
    ]);
    expect(problemsOf({ NB_CHINAMOBILE_PRODUCT_ID: '23104' })).toEqual([
      "Configuration error: NB_CHINAMOBILE_API_URL must be set too when NB_CHINAMOBILE_PRODUCT_ID is (the platform's command API)",
    ]);
    const problems = problemsOf({
      NB_CHINATELECOM_MASTER_KEY: 'short-key',
      NB_CHINAMOBILE_ACCESS_KEY: 'not base64 but long!',
    });
    expect(problems.join('\n')).not.toContain('short-key');
    expect(problems.join('\n')).not.toContain('not base64');
  });

  it('serves the API docs only when API_DOCS turns them on (finding 11)', () => {
    expect(loadConfig({}).apiDocs).toBe(false);
    expect(loadConfig({ API_DOCS: '0' }).apiDocs).toBe(false);
    expect(loadConfig({ API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: '1' }).apiDocs).toBe(true);
  });

  it('trusts no proxy unless told which', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '' }).trustedProxies).toEqual([]);
    expect(
      loadConfig({ TRUSTED_PROXIES: ' 10.0.0.5, 10.1.0.0/16 ,loopback,fd00::/8,::1' }).trustedProxies,
    ).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback', 'fd00::/8', '::1']);
  });

  it('serves HTTPS only with both TLS files named', () => {
    expect(loadConfig({}).tls).toBeUndefined();
    expect(loadConfig({ TLS_CERT: 'tls/cert.pem', TLS_KEY: '/etc/uiot/key.pem' }).tls).toEqual({
      certFile: path.resolve('tls/cert.pem'),
      keyFile: '/etc/uiot/key.pem',
    });
    expect(problemsOf({ TLS_CERT: 'tls/cert.pem' })).toEqual([
      'Configuration error: TLS_KEY must be set too when TLS_CERT is (the certificate and its key, both PEM files)',
    ]);
    expect(problemsOf({ TLS_KEY: 'tls/key.pem' })).toEqual([
      'Configuration error: TLS_CERT must be set too when TLS_KEY is (the certificate and its key, both PEM files)',
    ]);
  });

  it('reports every bad variable, one line each, in the error message too', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'abc', DEMO: 'maybe', LOG_LEVEL: 'loud', ADMIN_PASSWORD: 'Sh0rt' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.problems.map((line) => line.split(' ')[2]).sort()).toEqual([
      'ADMIN_PASSWORD',
      'DEMO',
      'LOG_LEVEL',
      'PORT',
    ]);
    expect(error.message.split('\n')).toEqual(error.problems);
    expect(error.message).not.toContain('Sh0rt');
  });
});
