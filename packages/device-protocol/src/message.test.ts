import { describe, expect, it } from 'vitest';
import { nulFieldOf } from './message.ts';

describe('nulFieldOf', () => {
  it('names the first text of a message holding U+0000', () => {
    expect(nulFieldOf({ kind: 'report', messageId: 'm\u0000' })).toBe('messageId');
    expect(
      nulFieldOf({
        kind: 'commandResult',
        messageId: 'm',
        commandId: 'c',
        outcome: 'Failure',
        detail: 'd\u0000',
      }),
    ).toBe('detail');
    expect(nulFieldOf({ kind: 'report', messageId: 'm', props: { note: 'a\u0000b' } })).toBe('props.note');
    expect(nulFieldOf({ kind: 'report', messageId: 'm', props: { 'k\u0000': 1 } })).toBe('props.k\\u0000');
  });

  it('finds nothing in a clean message', () => {
    expect(
      nulFieldOf({
        kind: 'report',
        messageId: 'm',
        event: 'status',
        battery: 5,
        props: { a: 'b', n: 1, f: true },
      }),
    ).toBeUndefined();
    expect(
      nulFieldOf({ kind: 'commandResult', messageId: 'm', commandId: 'c', outcome: 'Success' }),
    ).toBeUndefined();
  });
});
