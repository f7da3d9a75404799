import type { OperationChange, Page, PinRow } from '@uiot/contracts';

/**
 * Live PIN lists: the server publishes no PIN changes of its own, but every use a lock reports becomes an
 * operation record opened by PIN (docs/offline-pins.md). Such a record means the use count, usage time and
 * perhaps the use state (a used once-PIN expires) of a PIN of that lock moved, so the lists that may show it
 * are asked again. Pure: the page applies the answer to its query cache.
 */
export function pinPageAfterOpenings(
  _page: Page<PinRow>,
  query: Readonly<Record<string, unknown>>,
  changes: readonly OperationChange[],
): { page: null; refetch: boolean } {
  const device = typeof query.deviceId === 'string' && query.deviceId !== '' ? query.deviceId : null;
  return {
    page: null,
    refetch: changes.some(
      (change) => change.opMethod === 'pin' && (device === null || change.deviceId === device),
    ),
  };
}
