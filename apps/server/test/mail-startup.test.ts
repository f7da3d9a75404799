import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, tempDir, waitReady } from './support/server-process.ts';

describe('the server process with SMTP_URL', () => {
  const data = tempDir('uiot-mail-');
  afterAll(() => data.remove());

  it('says at start-up that mail goes through SMTP, naming the host but never the credentials', async () => {
    const server = spawnServer({
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      MQTT_WS_PORT: String(await freePort()),
      TCP_DIRECT_PORT: String(await freePort()),
      DATA_DIR: data.dir,
      ADMIN_PASSWORD: 'Mail-Admin-2026',
      LOG_LEVEL: 'info',
      SMTP_URL: 'smtp://mailer:Smtp-Secret-77@127.0.0.1:2525/?from=console%40example.com',
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
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
