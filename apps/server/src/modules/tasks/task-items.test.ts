import { describe, expect, it } from 'vitest';
import { planItems, type StoredItem } from './task-items.ts';

const stored = (id: string, deviceId: string, keyId: string | null): StoredItem => ({ id, deviceId, keyId });

describe('planItems', () => {
  it('keeps every item an edit keeps, in the new order', () => {
    const plan = planItems(
      [stored('i1', 'd1', 'k1'), stored('i2', 'd2', null)],
      [
        { deviceId: 'd2', keyId: null },
        { deviceId: 'd1', keyId: 'k1' },
      ],
    );
    expect(plan).toEqual({
      keep: [
        { id: 'i2', sortIndex: 0, keyId: null, keepDownload: true },
        { id: 'i1', sortIndex: 1, keyId: 'k1', keepDownload: true },
      ],
      add: [],
      remove: [],
    });
  });

  it('keeps the opening of a lock whose key changed, not its download', () => {
    expect(planItems([stored('i1', 'd1', 'k1')], [{ deviceId: 'd1', keyId: 'k2' }])).toEqual({
      keep: [{ id: 'i1', sortIndex: 0, keyId: 'k2', keepDownload: false }],
      add: [],
      remove: [],
    });
  });

  it('adds new locks, removes those left out, and prefers the same key when a lock is named twice', () => {
    const plan = planItems(
      [stored('i1', 'd1', 'k1'), stored('i2', 'd1', 'k2'), stored('i3', 'd3', null)],
      [
        { deviceId: 'd1', keyId: 'k2' },
        { deviceId: 'd4', keyId: null },
      ],
    );
    expect(plan).toEqual({
      keep: [{ id: 'i2', sortIndex: 0, keyId: 'k2', keepDownload: true }],
      add: [{ deviceId: 'd4', keyId: null, sortIndex: 1 }],
      remove: ['i1', 'i3'],
    });
  });
});
