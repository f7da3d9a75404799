import {
  type BatteryBandScale,
  batteryBand,
  DEFAULT_BATTERY_BANDS,
  offlineSeconds,
  type Page,
  type RuntimeChange,
  type RuntimeRow,
} from '@uiot/contracts';

/**
 * Live runtime data (spec §4 Realtime): what a published `RuntimeChange` does to the rows a page shows, and
 * whether the page must be asked for again because the change moved a device into or out of its search.
 * Pure: the page applies the answer to its query cache.
 */

/** A runtime page query as the table sent it: search parameters (text, or booleans), sort and paging. */
export type RuntimeQuery = Readonly<Record<string, unknown>>;

/**
 * A device's runtime row after a change: absent fields did not change; a change that tells whether the device
 * is online ends the offline time or starts it (from when the server says it went offline, else from the
 * last message, as the server counts).
 */
export function applyRuntimeChange(row: RuntimeRow, change: RuntimeChange, now: Date): RuntimeRow {
  const lastCollectTime = change.lastCollectTime ?? row.lastCollectTime;
  const online = change.online ?? row.online;
  const offlineSince =
    change.online === undefined ? row.offlineSince : online ? null : (change.offlineSince ?? null);
  const next = {
    ...row,
    online,
    lastCollectTime,
    offlineSince,
    lockState: change.lockState ?? row.lockState,
    doorState: change.doorState ?? row.doorState,
    battery: change.battery ?? row.battery,
    rssi: change.rssi ?? row.rssi,
    runState: change.runState ?? row.runState,
  };
  return change.online === undefined ? next : { ...next, offlineSeconds: offlineSecondsAt(next, now) };
}

/**
 * "Offline for" of a row at `now`, by the server's rule (contracts `offlineSeconds`): the console shows it
 * at its own clock, so that it keeps counting between answers and changes.
 */
export function offlineSecondsAt(
  row: Pick<RuntimeRow, 'online' | 'offlineSince' | 'lastCollectTime'>,
  now: Date,
): number | null {
  return offlineSeconds(row.online, row.offlineSince, row.lastCollectTime, now);
}

/** A query value as text: the table sends selects as they are, the URL as text. */
function queryText(query: RuntimeQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

/**
 * The state filters of the runtime search (the ones a change can make a row pass or fail), read as the
 * server reads them (runtime.service.ts): a state never reported is `unknown`, a run state never reported
 * `normal`, an unknown battery level in no band, a known one in its band on the power levels' scale.
 */
const STATE_FILTERS = {
  online: (query, row) => {
    const wanted = queryText(query, 'online');
    return wanted === undefined || String(row.online) === wanted;
  },
  lockState: (query, row) => {
    const wanted = queryText(query, 'lockState');
    return wanted === undefined || row.lockState === wanted;
  },
  doorState: (query, row) => {
    const wanted = queryText(query, 'doorState');
    return wanted === undefined || row.doorState === wanted;
  },
  runState: (query, row) => {
    const wanted = queryText(query, 'runState');
    return wanted === undefined || row.runState === wanted;
  },
  battery: (query, row, scale) => {
    const wanted = queryText(query, 'batteryBand');
    return wanted === undefined || batteryBand(row.battery, scale) === wanted;
  },
} satisfies Record<
  string,
  (query: RuntimeQuery, row: Pick<RuntimeRow, FilteredField>, scale: BatteryBandScale) => boolean
>;
type FilteredField = 'online' | 'lockState' | 'doorState' | 'runState' | 'battery';
const FILTERED_FIELDS = Object.keys(STATE_FILTERS) as FilteredField[];
/** The query parameter of each filtered field. */
const FILTER_PARAMETER: Record<FilteredField, string> = {
  online: 'online',
  lockState: 'lockState',
  doorState: 'doorState',
  runState: 'runState',
  battery: 'batteryBand',
};

/**
 * Whether a row still passes the query's state filters. The other filters (name, code, unit, type) read
 * ledger fields that no runtime change touches.
 */
export function rowMatchesQuery(
  row: RuntimeRow,
  query: RuntimeQuery,
  scale: BatteryBandScale = DEFAULT_BATTERY_BANDS,
): boolean {
  return FILTERED_FIELDS.every((field) => STATE_FILTERS[field](query, row, scale));
}

/**
 * Whether a change may bring a device the page does not show into the query's results: it sets a filtered
 * state to a value the filter wants, and nothing it says contradicts another filter. `online: true` comes
 * with every report, so it alone tells nothing; going offline is published once, when it happens.
 */
export function mayEnterQuery(
  change: RuntimeChange,
  query: RuntimeQuery,
  scale: BatteryBandScale = DEFAULT_BATTERY_BANDS,
): boolean {
  const told = FILTERED_FIELDS.filter((field) => change[field] !== undefined);
  // Only the fields told are read below.
  const known = change as Pick<RuntimeRow, FilteredField>;
  const filtered = told.filter((field) => queryText(query, FILTER_PARAMETER[field]) !== undefined);
  if (filtered.some((field) => !STATE_FILTERS[field](query, known, scale))) return false;
  return filtered.some((field) => field !== 'online' || change.online === false);
}

/** Sort names of the runtime table (runtime.service.ts `sortable`) that a change can alter. */
const LIVE_SORTS: Record<string, (row: RuntimeRow) => unknown> = {
  lockState: (row) => row.lockState,
  doorState: (row) => row.doorState,
  online: (row) => row.online,
  battery: (row) => row.battery,
  lastCollectTime: (row) => row.lastCollectTime,
  offlineSeconds: (row) => row.online,
  runState: (row) => row.runState,
  rssi: (row) => row.rssi,
};

export interface RuntimePageMerge {
  /** The page with the changes applied; null when no row of it changed. */
  page: Page<RuntimeRow> | null;
  /**
   * The page should be asked for again: a row left the search, a device may have entered it, or the
   * page's sort order changed.
   */
  refetch: boolean;
}

/** Applies changes, in order, to a cached page of the runtime table (battery bands on `scale`). */
export function mergeRuntimePage(
  page: Page<RuntimeRow>,
  query: RuntimeQuery,
  changes: readonly RuntimeChange[],
  now: Date,
  scale: BatteryBandScale = DEFAULT_BATTERY_BANDS,
): RuntimePageMerge {
  const position = new Map(page.rows.map((row, index) => [row.deviceId, index]));
  const sortValue = LIVE_SORTS[queryText(query, 'sort') ?? ''];
  let rows: RuntimeRow[] | null = null;
  let refetch = false;
  for (const change of changes) {
    const index = position.get(change.deviceId);
    if (index === undefined) {
      refetch ||= mayEnterQuery(change, query, scale);
      continue;
    }
    rows ??= [...page.rows];
    const before = rows[index] as RuntimeRow;
    const after = applyRuntimeChange(before, change, now);
    rows[index] = after;
    refetch ||=
      !rowMatchesQuery(after, query, scale) ||
      (sortValue !== undefined && sortValue(before) !== sortValue(after));
  }
  return { page: rows ? { ...page, rows } : null, refetch };
}

/** The runtime of one device (the detail page's header) after the changes of it, in order. */
export function mergeDeviceRuntime(
  row: RuntimeRow | null,
  changes: readonly RuntimeChange[],
  now: Date,
): RuntimeRow | null {
  if (!row) return row;
  return changes
    .filter((change) => change.deviceId === row.deviceId)
    .reduce((current, change) => applyRuntimeChange(current, change, now), row);
}
