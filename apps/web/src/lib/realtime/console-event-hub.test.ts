import type { CommandChange, ConsoleEvent, RuntimeChange } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { ConsoleEventHub, parseConsoleEvent } from './console-event-hub.ts';

const RUNTIME: RuntimeChange = {
  deviceId: 'd1',
  messageId: 'm1',
  online: true,
  lastCollectTime: '2025-01-01T00:00:00.000Z',
  doorState: 'open',
  battery: 80,
};
const COMMAND: CommandChange = {
  id: 'c1',
  deviceId: 'd1',
  cmdCode: 'open',
  name: 'Open',
  state: 'Success',
  attempts: 1,
  sendFlag: true,
  updateTime: '2025-01-01T00:00:01.000Z',
};
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('parseConsoleEvent', () => {
  it('reads a console event from bytes or text', () => {
    const event: ConsoleEvent = { kind: 'runtime', changes: [RUNTIME] };
    expect(parseConsoleEvent(encode(event))).toEqual(event);
    expect(parseConsoleEvent(JSON.stringify({ kind: 'command', changes: [COMMAND] }))).toEqual({
      kind: 'command',
      changes: [COMMAND],
    });
  });

  it('ignores what is not JSON or not a console event this console reads', () => {
    expect(parseConsoleEvent('not json')).toBeNull();
    expect(parseConsoleEvent(new Uint8Array([0xff, 0xfe]))).toBeNull();
    expect(parseConsoleEvent('null')).toBeNull();
    expect(parseConsoleEvent(encode({ kind: 'ticket', changes: [] }))).toBeNull();
    expect(parseConsoleEvent(encode({ kind: 'runtime', changes: [{ deviceId: 'd1' }] }))).toBeNull();
    expect(
      parseConsoleEvent(encode({ kind: 'runtime', changes: [{ ...RUNTIME, doorState: 'ajar' }] })),
    ).toBeNull();
  });
});

describe('ConsoleEventHub', () => {
  it('hands each event to the handlers of its kind only, in order', () => {
    const hub = new ConsoleEventHub();
    const runtime: RuntimeChange[][] = [];
    const commands: CommandChange[][] = [];
    hub.on('runtime', (changes) => runtime.push(changes));
    hub.on('command', (changes) => commands.push(changes));

    hub.dispatch(encode({ kind: 'runtime', changes: [RUNTIME] }));
    hub.dispatch(encode({ kind: 'command', changes: [COMMAND] }));
    hub.dispatch(encode({ kind: 'runtime', changes: [{ ...RUNTIME, online: false, messageId: null }] }));

    expect(runtime).toEqual([[RUNTIME], [{ ...RUNTIME, online: false, messageId: null }]]);
    expect(commands).toEqual([[COMMAND]]);
  });

  it('calls every handler of a kind, and none after its removal', () => {
    const hub = new ConsoleEventHub();
    const calls: string[] = [];
    const offA = hub.on('runtime', () => calls.push('a'));
    hub.on('runtime', () => calls.push('b'));
    hub.dispatch(encode({ kind: 'runtime', changes: [RUNTIME] }));
    offA();
    hub.dispatch(encode({ kind: 'runtime', changes: [RUNTIME] }));
    expect(calls).toEqual(['a', 'b', 'b']);
  });

  it('skips bad messages and empty events', () => {
    const hub = new ConsoleEventHub();
    const calls: unknown[] = [];
    hub.on('runtime', (changes) => calls.push(changes));
    hub.dispatch('{');
    hub.dispatch(encode({ kind: 'runtime', changes: [] }));
    hub.dispatch(encode({ kind: 'runtime' }));
    expect(calls).toEqual([]);
  });

  it('reports a failing handler without keeping the others from the event', () => {
    const errors: unknown[] = [];
    const hub = new ConsoleEventHub((error) => errors.push(error));
    const failure = new Error('page bug');
    const calls: string[] = [];
    hub.on('command', () => {
      throw failure;
    });
    hub.on('command', () => calls.push('after'));
    hub.dispatch(encode({ kind: 'command', changes: [COMMAND] }));
    expect(errors).toEqual([failure]);
    expect(calls).toEqual(['after']);
  });
});
