import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleConnections } from './broker-consoles.ts';
import type { ConsoleIdentity } from './topic-acl.ts';

const identity = (session: string, kinds: string[], stationId = 'S1'): ConsoleIdentity => ({
  kind: 'console',
  stationId,
  session,
  kinds,
});

function connections(timeoutMs = 1_000) {
  const asked: Array<{ id: number; session: string; username: string }> = [];
  const applied: Array<{ client: string; kinds: readonly string[] }> = [];
  const closed: string[] = [];
  const registry = new ConsoleConnections<string>({
    ask: (id, session, username) => asked.push({ id, session, username }),
    apply: (client, next) => applied.push({ client, kinds: next.kinds }),
    close: (client) => closed.push(client),
    timeoutMs,
  });
  return { registry, asked, applied, closed };
}

describe('finding 6: console connections looked at again when their sessions change', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("rechecks the sessions of a user, of a session, or of everyone, and applies each answer to that session's connections", () => {
    const { registry, asked, applied, closed } = connections();
    registry.add('tab-1', identity('s-alice', ['runtime']), 'alice');
    registry.add('tab-2', identity('s-alice', ['runtime']), 'alice');
    registry.add('tab-3', identity('s-bob', ['runtime', 'command']), 'bob');

    registry.refresh({ username: 'alice' });
    expect(asked).toEqual([{ id: 1, session: 's-alice', username: 'alice' }]);
    registry.answer(1, identity('s-alice', []));
    expect(applied).toEqual([
      { client: 'tab-1', kinds: [] },
      { client: 'tab-2', kinds: [] },
    ]);

    registry.refresh({ session: 's-bob' });
    registry.refresh({});
    expect(asked.map((a) => a.session)).toEqual(['s-alice', 's-bob', 's-alice', 's-bob']);
    expect(closed).toEqual([]);
  });

  it('closes the connections of a session that no longer stands, changed station, or could not be checked', () => {
    const { registry, asked, closed } = connections();
    registry.add('ended', identity('s-1', ['runtime']), 'a');
    registry.add('moved', identity('s-2', ['runtime']), 'b');
    registry.add('failed', identity('s-3', ['runtime']), 'c');
    registry.refresh({});
    registry.answer(asked[0]!.id, null);
    registry.answer(asked[1]!.id, identity('s-2', ['runtime'], 'S2'));
    registry.answer(asked[2]!.id, identity('s-3', ['runtime']), true);
    expect(closed).toEqual(['ended', 'moved', 'failed']);
    expect(registry.size).toBe(0);
  });

  it('keeps only the answer to the latest recheck of a session (an earlier one may predate the change)', () => {
    const { registry, asked, applied } = connections();
    registry.add('tab', identity('s', ['runtime']), 'a');
    registry.refresh({});
    registry.refresh({});
    registry.answer(asked[1]!.id, identity('s', []));
    registry.answer(asked[0]!.id, identity('s', ['runtime']));
    expect(applied).toEqual([{ client: 'tab', kinds: [] }]);
  });

  it('closes the connections when the server does not answer in time', () => {
    vi.useFakeTimers();
    const { registry, closed } = connections(500);
    registry.add('tab', identity('s', ['runtime']), 'a');
    registry.refresh({ session: 's' });
    vi.advanceTimersByTime(499);
    expect(closed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(closed).toEqual(['tab']);
  });

  it('forgets a closed connection and asks nothing about sessions without one', () => {
    const { registry, asked } = connections();
    registry.add('tab', identity('s', ['runtime']), 'a');
    registry.remove('tab');
    registry.refresh({});
    registry.recheck('s');
    expect(asked).toEqual([]);
    expect(registry.size).toBe(0);
  });
});
