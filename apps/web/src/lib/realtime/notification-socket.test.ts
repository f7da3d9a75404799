import { HEART_CHECK, REALTIME_TIMING, type UserNotification } from '@uiot/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationSocket, parseNotification, type SocketEvents } from './notification-socket.ts';
import { browserScheduler } from './scheduler.ts';

const URL = 'ws://console.example/websocket';
const TOKEN = 'session-token';
const HEARTBEAT = REALTIME_TIMING.socketHeartbeatMs;
const RECONNECT = REALTIME_TIMING.socketReconnectMs;

const NOTIFICATION: UserNotification = {
  kind: 'commandFinished',
  commandId: 'c1',
  deviceId: 'd1',
  deviceName: 'Gate 3',
  name: 'Open lock',
  state: 'Success',
  failure: null,
};

class FakeSocket {
  readonly sent: string[] = [];
  closed = false;
  constructor(
    readonly url: string,
    readonly events: SocketEvents,
  ) {}
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.closed = true;
  }
}

function setUp() {
  const sockets: FakeSocket[] = [];
  const received: UserNotification[] = [];
  const socket = new NotificationSocket({
    url: URL,
    token: TOKEN,
    heartbeatMs: HEARTBEAT,
    reconnectMs: RECONNECT,
    scheduler: browserScheduler,
    open: (url, events) => {
      const fake = new FakeSocket(url, events);
      sockets.push(fake);
      return fake;
    },
    onNotification: (notification) => received.push(notification),
  });
  return { sockets, received, socket, last: () => sockets.at(-1)! };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('NotificationSocket', () => {
  it('authenticates with its first message once open, then sends heartCheck every heartbeat period', () => {
    const t = setUp();
    t.socket.start();
    expect(t.sockets.map((s) => s.url)).toEqual([URL]);
    expect(t.last().sent).toEqual([]);

    t.last().events.opened();
    expect(t.last().sent.map((text) => JSON.parse(text))).toEqual([{ type: 'auth', token: TOKEN }]);
    vi.advanceTimersByTime(HEARTBEAT - 1);
    expect(t.last().sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.last().sent.slice(1)).toEqual([HEART_CHECK]);
    vi.advanceTimersByTime(HEARTBEAT * 2);
    expect(t.last().sent.slice(1)).toEqual([HEART_CHECK, HEART_CHECK, HEART_CHECK]);
  });

  it('hands on notifications and ignores heartbeat answers, readiness and what it does not understand', () => {
    const t = setUp();
    t.socket.start();
    const { events } = t.last();
    events.opened();
    events.message(HEART_CHECK);
    events.message(JSON.stringify({ type: 'ready' }));
    events.message('{broken');
    events.message(JSON.stringify({ type: 'notification', time: 'now', notification: { kind: 'other' } }));
    events.message(
      JSON.stringify({ type: 'notification', time: '2025-01-01T00:00:00Z', notification: NOTIFICATION }),
    );
    expect(t.received).toEqual([NOTIFICATION]);
  });

  it('reconnects a fixed time after a close, and stops the heartbeat meanwhile', () => {
    const t = setUp();
    t.socket.start();
    const first = t.last();
    first.events.opened();
    vi.advanceTimersByTime(1_000);
    first.events.dropped();
    expect(first.closed).toBe(true);

    vi.advanceTimersByTime(RECONNECT - 1);
    expect(t.sockets).toHaveLength(1);
    expect(first.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);

    t.last().events.opened();
    expect(JSON.parse(t.last().sent[0] ?? '')).toEqual({ type: 'auth', token: TOKEN });
    vi.advanceTimersByTime(HEARTBEAT);
    expect(first.sent).toHaveLength(1);
    expect(t.last().sent.slice(1)).toEqual([HEART_CHECK]);
  });

  it('reconnects once for an error followed by a close, and again after a failed attempt', () => {
    const t = setUp();
    t.socket.start();
    t.last().events.dropped(); // error
    t.last().events.dropped(); // close
    vi.advanceTimersByTime(RECONNECT);
    expect(t.sockets).toHaveLength(2);
    // the server is still away: the attempt fails before opening
    t.last().events.dropped();
    vi.advanceTimersByTime(RECONNECT);
    expect(t.sockets).toHaveLength(3);
  });

  it('ignores what a dropped socket still reports', () => {
    const t = setUp();
    t.socket.start();
    const first = t.last();
    first.events.dropped();
    first.events.opened();
    first.events.message(JSON.stringify({ type: 'notification', time: 'x', notification: NOTIFICATION }));
    expect(first.sent).toEqual([]);
    expect(t.received).toEqual([]);
  });

  it('stops: closes the socket, no heartbeat, no reconnection', () => {
    const t = setUp();
    t.socket.start();
    const first = t.last();
    first.events.opened();
    t.socket.stop();
    expect(first.closed).toBe(true);
    first.events.dropped();
    vi.advanceTimersByTime(RECONNECT + HEARTBEAT * 2);
    expect(t.sockets).toHaveLength(1);
    expect(first.sent).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops while waiting to reconnect', () => {
    const t = setUp();
    t.socket.start();
    t.last().events.dropped();
    t.socket.stop();
    vi.advanceTimersByTime(RECONNECT * 2);
    expect(t.sockets).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('parseNotification', () => {
  it('reads only notification messages', () => {
    expect(
      parseNotification(JSON.stringify({ type: 'notification', time: 't', notification: NOTIFICATION })),
    ).toEqual(NOTIFICATION);
    expect(parseNotification(HEART_CHECK)).toBeNull();
    expect(parseNotification(JSON.stringify({ type: 'ready' }))).toBeNull();
    expect(parseNotification('[]')).toBeNull();
  });
});
