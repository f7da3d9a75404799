/**
 * How an edit of a lock task keeps the work already done (docs/lock-tasks.md): the items the edit keeps keep
 * their progress, so an edit never makes done work to be done again.
 */

/** A stored operation item (its progress, download and opening, stays in the row). */
export interface StoredItem {
  id: string;
  deviceId: string;
  keyId: string | null;
}

/** An item of the edited task, in its order. */
export interface EditedItem {
  deviceId: string;
  keyId: string | null;
}

export interface ItemsPlan {
  /** Stored items kept: their new place and key; `keepDownload` false when the key changed. */
  keep: { id: string; sortIndex: number; keyId: string | null; keepDownload: boolean }[];
  /** New items: no progress. */
  add: { deviceId: string; keyId: string | null; sortIndex: number }[];
  /** Stored items the edit leaves out. */
  remove: string[];
}

/**
 * Matches the edited items to the stored ones: the same lock and key first (everything kept), then the same
 * lock with another key (its opening stays done; its download does not, since the new key has not got it).
 */
export function planItems(stored: readonly StoredItem[], edited: readonly EditedItem[]): ItemsPlan {
  const free = new Set(stored.map((item) => item.id));
  const matched = new Map<number, { item: StoredItem; sameKey: boolean }>();
  const take = (index: number, match: (item: StoredItem) => boolean, sameKey: boolean) => {
    const item = stored.find((s) => free.has(s.id) && match(s));
    if (!item) return;
    free.delete(item.id);
    matched.set(index, { item, sameKey });
  };
  for (const [i, e] of edited.entries()) {
    take(i, (s) => s.deviceId === e.deviceId && s.keyId === e.keyId, true);
  }
  for (const [i, e] of edited.entries()) {
    if (!matched.has(i)) take(i, (s) => s.deviceId === e.deviceId, false);
  }
  const plan: ItemsPlan = { keep: [], add: [], remove: [...free] };
  edited.forEach((e, sortIndex) => {
    const found = matched.get(sortIndex);
    if (found) {
      plan.keep.push({ id: found.item.id, sortIndex, keyId: e.keyId, keepDownload: found.sameKey });
    } else {
      plan.add.push({ deviceId: e.deviceId, keyId: e.keyId, sortIndex });
    }
  });
  return plan;
}
