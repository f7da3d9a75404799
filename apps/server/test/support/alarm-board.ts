import { api } from '@uiot/contracts';
import { DEFAULT_STATION } from '../../src/lib/station.ts';
import type { TestApp } from './app.ts';

/** The one-time code of a display link's address (`/warningRecord#code=…`). */
export function boardCodeOf(path: string): string {
  return new URLSearchParams(new URL(path, 'http://board.test').hash.slice(1)).get('code') ?? '';
}

/** A display session of a new link of the default station, made by a holder of alarmBoard.manage. */
export async function boardDisplayToken(t: TestApp, managerToken: string): Promise<string> {
  const link = await t.call(api.alarmBoard.save, {
    token: managerToken,
    body: { name: 'Wall screen', stationId: DEFAULT_STATION.id },
  });
  const session = await t.call(api.alarmBoard.exchange, { body: { code: boardCodeOf(link.body.data.path) } });
  return session.body.data.token;
}
