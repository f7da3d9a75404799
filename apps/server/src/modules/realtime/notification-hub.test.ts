import { Permission, type SocketServerMessage, type UserNotification } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../lib/test-support.ts';
import { type HubMessage, inProcessChannel, type NotificationChannel } from './notification-channel.ts';
import { NotificationHub, type NotificationPeer } from './notification-hub.ts';

const notification: UserNotification = {
  kind: 'commandFinished',
  commandId: 'c1',
  deviceId: 'd1',
  deviceName: 'Gate',
  name: 'Open',
  state: 'Success',
  failure: null,
};

function peer(staffId: string, tokenHash = `h-${staffId}`) {
  const received: SocketServerMessage[] = [];
  const closed: string[] = [];
  const p: NotificationPeer = {
    staffId,
    tokenHash,
    send: (m) => received.push(m),
    sessionEnded: () => closed.push('sessionEnded'),
    displaced: () => closed.push('displaced'),
  };
  return { peer: p, received, closed };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

const COMMAND_READER: ReadonlySet<string> = new Set([Permission.DeviceCommandRead]);

function hub(
  options: {
    channel?: NotificationChannel;
    live?: Set<string>;
    maxPeersPerUser?: number;
    /** Permission keys per token hash; a session not listed reads commands. */
    keys?: Map<string, ReadonlySet<string> | null>;
  } = {},
) {
  const live = options.live ?? new Set<string>();
  const keys = options.keys ?? new Map<string, ReadonlySet<string> | null>();
  const log = recordingLogger();
  return {
    live,
    keys,
    log,
    hub: new NotificationHub({
      channel: options.channel ?? inProcessChannel(),
      sessionStands: async (hash) => live.has(hash),
      permissionsOf: async (hash) => (keys.has(hash) ? keys.get(hash)! : COMMAND_READER),
      logger: log.logger,
      now: () => new Date(0),
      ...(options.maxPeersPerUser ? { maxPeersPerUser: options.maxPeersPerUser } : {}),
    }),
  };
}

describe('NotificationHub', () => {
  it('delivers a notification to every connection of that user and to nobody else', async () => {
    const { hub: h } = hub();
    const a1 = peer('a', 'h1');
    const a2 = peer('a', 'h2');
    const b = peer('b');
    for (const p of [a1, a2, b]) h.add(p.peer);
    await h.notify('a', notification);
    await tick();
    const expected = { type: 'notification', time: new Date(0).toISOString(), notification };
    expect(a1.received).toEqual([expected]);
    expect(a2.received).toEqual([expected]);
    expect(b.received).toEqual([]);
    h.remove(a1.peer);
    await h.notify('a', notification);
    await tick();
    expect(a1.received).toHaveLength(1);
    expect(a2.received).toHaveLength(2);
  });

  it('closes, when sessions of a user end, the connections whose session no longer stands', async () => {
    const { hub: h, live } = hub({ live: new Set(['kept']) });
    const kept = peer('a', 'kept');
    const ended = peer('a', 'ended');
    h.add(kept.peer);
    h.add(ended.peer);
    await h.sessionsEnded('a');
    await tick();
    await tick();
    expect(ended.closed).toEqual(['sessionEnded']);
    expect(kept.closed).toEqual([]);
    expect(h.size).toBe(1);
    live.clear();
    expect(await h.recheck(kept.peer)).toBe(false);
    expect(kept.closed).toEqual(['sessionEnded']);
    expect(h.size).toBe(0);
  });

  it('keeps a connection when its session cannot be checked (database away)', async () => {
    const log = recordingLogger();
    const h = new NotificationHub({
      channel: inProcessChannel(),
      sessionStands: () => Promise.reject(new Error('connection refused')),
      permissionsOf: async () => COMMAND_READER,
      logger: log.logger,
    });
    const p = peer('a');
    h.add(p.peer);
    expect(await h.recheck(p.peer)).toBe(true);
    expect(p.closed).toEqual([]);
    expect(log.lines).toHaveLength(1);
  });

  it('ends the oldest connection of a user beyond the limit', () => {
    const { hub: h } = hub({ maxPeersPerUser: 2 });
    const peers = [peer('a', '1'), peer('a', '2'), peer('a', '3')];
    for (const p of peers) h.add(p.peer);
    expect(peers.map((p) => p.closed)).toEqual([['displaced'], [], []]);
    expect(h.size).toBe(2);
  });

  it('delivers what another instance sent, and never throws when sending fails', async () => {
    let deliver: ((m: HubMessage) => void) | null = null;
    const channel: NotificationChannel = {
      send: () => Promise.reject(new Error('database away')),
      receive: (handler) => {
        deliver = handler;
      },
      close: async () => {},
    };
    const { hub: h, log } = hub({ channel });
    const p = peer('a');
    h.add(p.peer);
    await expect(h.notify('a', notification)).resolves.toBeUndefined();
    expect(log.lines).toHaveLength(1);
    deliver!({ type: 'notify', staffId: 'a', time: 'T', notification });
    await tick();
    expect(p.received).toEqual([{ type: 'notification', time: 'T', notification }]);
  });

  it('finding 6: delivers a notification only to the sessions whose permissions read its kind, as they are now', async () => {
    const keys = new Map<string, ReadonlySet<string> | null>([
      ['reader', COMMAND_READER],
      ['sender', new Set([Permission.DeviceCommandSend, Permission.MonitorRead])],
      ['nobody', new Set()],
      ['ended', null],
    ]);
    const { hub: h } = hub({ keys });
    const peers = ['reader', 'sender', 'nobody', 'ended'].map((hash) => peer('a', hash));
    for (const p of peers) h.add(p.peer);
    await h.notify('a', notification);
    await tick();
    expect(peers.map((p) => p.received.length)).toEqual([1, 0, 0, 0]);

    // The reader's role loses deviceCommand.read: the next notification is not sent.
    keys.set('reader', new Set([Permission.MonitorRead]));
    keys.set('sender', COMMAND_READER);
    await h.notify('a', notification);
    await tick();
    expect(peers.map((p) => p.received.length)).toEqual([1, 1, 0, 0]);
  });

  it('sends nothing when the permissions cannot be read, and keeps the order of what it sends', async () => {
    let fail = true;
    const log = recordingLogger();
    let release: (() => void) | null = null;
    const h = new NotificationHub({
      channel: inProcessChannel(),
      sessionStands: async () => true,
      permissionsOf: async () => {
        if (fail) throw new Error('database away');
        // The first check is slow: the second notification must still come after the first.
        if (!release) await new Promise<void>((resolve) => (release = resolve));
        return COMMAND_READER;
      },
      logger: log.logger,
    });
    const p = peer('a');
    h.add(p.peer);
    await h.notify('a', notification);
    await tick();
    expect(p.received).toEqual([]);
    expect(log.lines).toHaveLength(1);
    fail = false;
    await h.notify('a', { ...notification, commandId: 'first' });
    await h.notify('a', { ...notification, commandId: 'second' });
    await tick();
    release!();
    await tick();
    await tick();
    expect(p.received.map((m) => (m.type === 'notification' ? m.notification.commandId : ''))).toEqual([
      'first',
      'second',
    ]);
  });
});
