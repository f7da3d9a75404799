import type { OperationChange } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { operationRow } from '../tasks/test-rows.ts';
import { pinPageAfterOpenings } from './pin-live.ts';
import { pinRow } from './test-rows.ts';

const page = { rows: [pinRow('p1')], total: 1 };
const opening = (values: Partial<OperationChange>): OperationChange =>
  operationRow('r1', { opMethod: 'pin', source: 'device', result: 'reported', ...values });

describe('pinPageAfterOpenings', () => {
  it('asks again for the lists an opening by PIN may have changed: every lock, or that lock', () => {
    const byPin = [opening({ deviceId: 'd1' })];
    expect(pinPageAfterOpenings(page, {}, byPin)).toEqual({ page: null, refetch: true });
    expect(pinPageAfterOpenings(page, { deviceId: 'd1' }, byPin).refetch).toBe(true);
    expect(pinPageAfterOpenings(page, { deviceId: 'd2' }, byPin).refetch).toBe(false);
  });

  it('leaves the lists alone for openings by key or remotely', () => {
    const others = [opening({ opMethod: 'key' }), opening({ opMethod: 'remote' })];
    expect(pinPageAfterOpenings(page, {}, others).refetch).toBe(false);
  });
});
