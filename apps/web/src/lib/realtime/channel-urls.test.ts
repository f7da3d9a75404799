import { describe, expect, it } from 'vitest';
import { type MqttOptions, mqttBrokerUrl, notificationSocketUrl, type PageLocation } from './channel-urls.ts';

const OPTIONS: MqttOptions = {
  port: 8083,
  path: '/mqtt',
  keepalive: 30,
  reconnectPeriod: 5_000,
  connectTimeout: 10_000,
  clean: true,
  ssl: false,
};

const page = (url: string): PageLocation => {
  const { protocol, hostname, host } = new URL(url);
  return { protocol, hostname, host };
};

describe('mqttBrokerUrl', () => {
  it("uses the page's host name with the configured port and path", () => {
    expect(mqttBrokerUrl(OPTIONS, page('http://console.example:8686/monitor/runtime'))).toBe(
      'ws://console.example:8083/mqtt',
    );
    expect(mqttBrokerUrl(OPTIONS, page('http://10.0.0.5/'))).toBe('ws://10.0.0.5:8083/mqtt');
  });

  it('uses wss on an https page or when the configuration asks for SSL', () => {
    expect(mqttBrokerUrl(OPTIONS, page('https://console.example/'))).toBe('wss://console.example:8083/mqtt');
    expect(mqttBrokerUrl({ ...OPTIONS, ssl: true, port: 8084 }, page('http://console.example/'))).toBe(
      'wss://console.example:8084/mqtt',
    );
  });

  it('keeps an IPv6 host in brackets', () => {
    expect(mqttBrokerUrl(OPTIONS, page('http://[::1]:8686/'))).toBe('ws://[::1]:8083/mqtt');
  });

  it('refuses a port or path that cannot be used', () => {
    const here = page('http://console.example/');
    expect(mqttBrokerUrl({ ...OPTIONS, port: 0 }, here)).toBeNull();
    expect(mqttBrokerUrl({ ...OPTIONS, port: 65_536 }, here)).toBeNull();
    expect(mqttBrokerUrl({ ...OPTIONS, path: 'mqtt' }, here)).toBeNull();
    expect(mqttBrokerUrl({ ...OPTIONS, port: 65_535 }, here)).toBe('ws://console.example:65535/mqtt');
  });
});

describe('notificationSocketUrl', () => {
  it("is /websocket on the page's own host and port", () => {
    expect(notificationSocketUrl(page('http://console.example:8686/home'))).toBe(
      'ws://console.example:8686/websocket',
    );
    expect(notificationSocketUrl(page('https://console.example/home'))).toBe(
      'wss://console.example/websocket',
    );
  });
});
