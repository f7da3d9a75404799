import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/lib/test-support.ts';
import { spawnServer, tempDir, waitReady } from './support/server-process.ts';

describe('the server process with SMTP_URL', () => {
  const data = tempDir('uiot-mail-');
  afterAll(() => data.remove());

  it('says at start-up that mail goes through SMTP and which alarm notification channels deliver, naming hosts but never credentials', async () => {
    const server = spawnServer({
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      MQTT_WS_PORT: String(await freePort()),
      TCP_DIRECT_PORT: String(await freePort()),
      DATA_DIR: data.dir,
      ADMIN_PASSWORD: 'Mail-Admin-2026',
      LOG_LEVEL: 'info',
      SMTP_URL: 'smtp://mailer:Smtp-Secret-77@127.0.0.1:2525/?from=console%40example.com',
      SMS_WEBHOOK_URL: 'https://gw.example.com/send?key=Gateway-Key-55',
      SMS_WEBHOOK_SECRET: 'Sms-Webhook-Secret-66',
    });
    try {
      await waitReady(server);
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.includes('mail is'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('mail is delivered through SMTP at 127.0.0.1:2525');
      expect(server.output()).not.toContain('Smtp-Secret-77');
      expect(server.output()).not.toContain('mailer:');
      // The alarm notification channels: the webhook's host, never its key or secret.
      expect(server.output()).toContain(
        'alarm notifications: e-mail through the mail server, SMS through gw.example.com (signed), no app push (PUSH_WEBHOOK_URL is not set)',
      );
      expect(server.output()).not.toContain('Gateway-Key-55');
      expect(server.output()).not.toContain('Sms-Webhook-Secret-66');
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
