import type { AuthorizationObject, KeyState, LockTaskState, OpenMethod, OpenRefusal } from '@uiot/contracts';
import { type DeviceOperator, mayOperateDeviceType } from '../devices/index.ts';

/**
 * The opening decision (spec §3 Lock task, Fixed authorization): whether a staff member may open a device at
 * a time by a method, and under which lock task or fixed authorisation. Every remote open, task download to a
 * key and offline-PIN issue asks this one rule, and the answer with its reason is recorded, so it is pure (the
 * caller loads the facts and passes the time) and refuses whenever the facts do not plainly allow.
 */

/** The staff member asking to open. */
export interface OpeningStaff {
  id: string;
  /** A disabled account opens nothing, whatever tasks or authorisations still name it. */
  status: 'activated' | 'disabled';
  /** The staff member's department and every department above it, nearest first (empty: none). */
  departmentPath: readonly string[];
  /** Role admin: holds every device-type grant, but still needs a task or an authorisation to open. */
  isAdmin: boolean;
  /** Permission keys, read for the device-type grant `devTypeOp:{typeId}`. */
  permissions: ReadonlySet<string>;
}

/** The device to open, with its place in the two-level type catalogue for the device-type grant. */
export interface OpenedDevice {
  id: string;
  typeId: string;
  /** The main type above the device's type (or the type itself); null when unknown. */
  mainTypeId: string | null;
}

/** The electronic key of a key opening: only a normal key, held by the staff member opening, opens. */
export interface OpeningKey {
  id: string;
  state: KeyState;
  /** staff the key is issued to */
  staffId: string | null;
}

/** A lock task as the decision reads it: who it is for, what it opens, when, and whether it is approved. */
export interface TaskGrant {
  id: string;
  /** Only an approved task (`Execute`, or `None` before its start) grants anything. */
  state: LockTaskState;
  /** ms epoch; the window is half-open: open from its first millisecond, closed at `endTime` itself. */
  startTime: number;
  /** ms epoch */
  endTime: number;
  /** Every device, not only the items' (an item for the device still binds its key). */
  allDevice: boolean;
  /** The operator team: the staff the task is for. */
  operatorIds: readonly string[];
  /** Operation items: a device, and the key to use on it where keys are used (null: any key the operator holds). */
  items: readonly { deviceId: string; keyId: string | null }[];
}

/** A fixed authorisation: a standing grant to a staff member or to a department and those below it. */
export interface AuthorizationGrant {
  id: string;
  objectType: AuthorizationObject;
  /** a staff id or a department id */
  objectId: string;
  /** No time limit; otherwise the half-open window [startTime, endTime) applies, and both must be set. */
  forever: boolean;
  /** ms epoch; null when forever */
  startTime: number | null;
  /** ms epoch; null when forever */
  endTime: number | null;
  /** Every device; otherwise those of `deviceIds` only. */
  allDevice: boolean;
  deviceIds: readonly string[];
}

/** What is asked: the time is the caller's, so that the decision reads no clock. */
export interface OpenRequest {
  /** ms epoch */
  at: number;
  method: OpenMethod;
  /** with method 'key' */
  keyId?: string | null;
  /**
   * An opening that already happened, reported afterwards (a client's record of a key or Bluetooth opening):
   * a task finished since (`Finish`: completed or expired, only ever reached from an approved state) still
   * covers its window.
   */
  happened?: boolean;
}

/** What the caller loaded for the request. */
export interface OpenFacts {
  /** null: unknown staff */
  staff: OpeningStaff | null;
  device: OpenedDevice;
  /** the key of the request (method 'key'), null when unknown or not a key opening */
  key: OpeningKey | null;
  /** candidate tasks (the caller may pass more than relevant; they are filtered here) */
  tasks: readonly TaskGrant[];
  /** candidate authorisations, filtered here likewise */
  authorizations: readonly AuthorizationGrant[];
}

/** The answer, naming the task or authorisation the opening is recorded under. */
export type OpenDecision =
  | { allowed: true; by: 'task'; taskId: string }
  | { allowed: true; by: 'fixedAuthorization'; authorizationId: string }
  | { allowed: false; refusal: OpenRefusal };

/** Approved task states: `None` is approved but not started, so its window decides like `Execute`'s. */
const APPROVED_STATES: ReadonlySet<LockTaskState> = new Set(['Execute', 'None']);
/** Task states still waiting for an audit (`Update`: an approved task's edit), named in the refusal. */
const AWAITING_AUDIT_STATES: ReadonlySet<LockTaskState> = new Set(['New', 'Audit', 'Update']);

const refuse = (refusal: OpenRefusal): OpenDecision => ({ allowed: false, refusal });

/** Half-open, so that back-to-back windows never both allow the same millisecond. */
const within = (at: number, start: number, end: number): boolean => start <= at && at < end;

/** Code-unit order, so that the choice does not depend on the runtime's locale. */
const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Whether the task is for this staff member and this device, and, for a key opening, for this key. An item
 * for the device binds its key even on an allDevice task; allDevice alone accepts any key the staff holds.
 * Other methods use no key, so an item's key does not restrict them.
 */
function taskCovers(task: TaskGrant, staffId: string, deviceId: string, request: OpenRequest): boolean {
  if (!task.operatorIds.includes(staffId)) return false;
  const items = task.items.filter((item) => item.deviceId === deviceId);
  if (items.length === 0) return task.allDevice;
  if (request.method !== 'key') return true;
  return items.some((item) => item.keyId === null || item.keyId === request.keyId);
}

/**
 * Whether the authorisation is for this staff member (directly, or through their current department or one
 * above it: a staff member who moved away loses a department's authorisation) and this device.
 */
function authorizationCovers(grant: AuthorizationGrant, staff: OpeningStaff, deviceId: string): boolean {
  const forStaff =
    grant.objectType === 'staff'
      ? grant.objectId === staff.id
      : grant.objectType === 'department' && staff.departmentPath.includes(grant.objectId);
  return forStaff && (grant.allDevice || grant.deviceIds.includes(deviceId));
}

/** A time-bounded authorisation's window, or null when it is forever or lacks a bound (then it never allows). */
function authorizationWindow(grant: AuthorizationGrant): { start: number; end: number } | null {
  if (grant.forever || grant.startTime === null || grant.endTime === null) return null;
  return { start: grant.startTime, end: grant.endTime };
}

function authorizationAllows(grant: AuthorizationGrant, at: number): boolean {
  if (grant.forever) return true;
  const window = authorizationWindow(grant);
  return window !== null && within(at, window.start, window.end);
}

/** The task to record: the one ending first (the most specific work), ties by id. */
function preferTask(a: TaskGrant, b: TaskGrant): number {
  return a.endTime - b.endTime || byId(a, b);
}

/** The authorisation to record: the staff member's own before a department's, time-bounded before forever. */
function preferAuthorization(a: AuthorizationGrant, b: AuthorizationGrant): number {
  const object = (g: AuthorizationGrant) => (g.objectType === 'staff' ? 0 : 1);
  const forever = (g: AuthorizationGrant) => (g.forever ? 1 : 0);
  return object(a) - object(b) || forever(a) - forever(b) || byId(a, b);
}

/** The first of `items` by `compare`, without reordering the caller's array. */
function first<T>(items: readonly T[], compare: (a: T, b: T) => number): T | undefined {
  let best: T | undefined;
  for (const item of items) if (best === undefined || compare(item, best) < 0) best = item;
  return best;
}

/**
 * May the staff member open the device at `request.at` by `request.method`, and under which task or fixed
 * authorisation? Checked in order: the account, the key (key openings), the device-type grant, then the
 * tasks (preferred, so the record names the work) and the fixed authorisations. Nobody, admin included,
 * opens without a task or an authorisation.
 */
export function mayOpen(request: OpenRequest, facts: OpenFacts): OpenDecision {
  const { staff, device, key } = facts;
  if (staff === null) return refuse('staffUnknown');
  if (staff.status !== 'activated') return refuse('staffDisabled');

  if (request.method === 'key') {
    if (!request.keyId || key === null || key.id !== request.keyId) return refuse('keyRequired');
    if (key.state !== 'normal') return refuse('keyUnusable');
    if (key.staffId !== staff.id) return refuse('keyNotHeld');
  }

  const operator: DeviceOperator = { isAdmin: staff.isAdmin, permissions: staff.permissions };
  if (!mayOperateDeviceType(operator, { typeId: device.typeId, mainTypeId: device.mainTypeId })) {
    return refuse('deviceTypeNotGranted');
  }

  const coveringTasks = facts.tasks.filter((task) => taskCovers(task, staff.id, device.id, request));
  const approvedTasks = coveringTasks.filter(
    (task) => APPROVED_STATES.has(task.state) || (request.happened === true && task.state === 'Finish'),
  );
  const task = first(
    approvedTasks.filter((t) => within(request.at, t.startTime, t.endTime)),
    preferTask,
  );
  if (task) return { allowed: true, by: 'task', taskId: task.id };

  const coveringGrants = facts.authorizations.filter((grant) => authorizationCovers(grant, staff, device.id));
  const grant = first(
    coveringGrants.filter((g) => authorizationAllows(g, request.at)),
    preferAuthorization,
  );
  if (grant) return { allowed: true, by: 'fixedAuthorization', authorizationId: grant.id };

  if (coveringTasks.some((t) => AWAITING_AUDIT_STATES.has(t.state))) return refuse('taskNotApproved');
  // Nothing covering allowed, so every approved covering task and bounded authorisation is outside its window.
  if (approvedTasks.length > 0 || coveringGrants.some((g) => authorizationWindow(g) !== null)) {
    return refuse('outsideTaskWindow');
  }
  return refuse('notAuthorized');
}

/** The answer for a remote close: no task is needed to lock a lock, but the account and the type grant are. */
export type CloseDecision = { allowed: true } | { allowed: false; refusal: OpenRefusal };

/**
 * May the staff member close (lock) the device remotely? Locking makes a lock safe, so no task or
 * authorisation is asked; an unknown or disabled account, or one without the device-type grant, may not.
 */
export function mayClose(facts: Pick<OpenFacts, 'staff' | 'device'>): CloseDecision {
  const { staff, device } = facts;
  if (staff === null) return { allowed: false, refusal: 'staffUnknown' };
  if (staff.status !== 'activated') return { allowed: false, refusal: 'staffDisabled' };
  const operator: DeviceOperator = { isAdmin: staff.isAdmin, permissions: staff.permissions };
  if (!mayOperateDeviceType(operator, { typeId: device.typeId, mainTypeId: device.mainTypeId })) {
    return { allowed: false, refusal: 'deviceTypeNotGranted' };
  }
  return { allowed: true };
}

/** What covered an opening a lock reported by itself: the task or authorisation in force for the lock then. */
export type OpeningCover =
  | { by: 'task'; taskId: string }
  | { by: 'fixedAuthorization'; authorizationId: string }
  | null;

/**
 * Whether an opening a lock reported (it does not say by whom) was covered: an approved task in its window
 * for the device (any operator), or an authorisation in force for it (anyone's). An opening nothing covers
 * is one nobody may have made, and raises an alarm. The time is the report's, and the windows are
 * half-open as for `mayOpen`.
 */
export function reportedOpeningCover(
  at: number,
  deviceId: string,
  tasks: readonly TaskGrant[],
  authorizations: readonly AuthorizationGrant[],
): OpeningCover {
  const task = first(
    tasks.filter(
      (t) =>
        APPROVED_STATES.has(t.state) &&
        within(at, t.startTime, t.endTime) &&
        (t.allDevice || t.items.some((item) => item.deviceId === deviceId)),
    ),
    preferTask,
  );
  if (task) return { by: 'task', taskId: task.id };
  const grant = first(
    authorizations.filter(
      (g) => authorizationAllows(g, at) && (g.allDevice || g.deviceIds.includes(deviceId)),
    ),
    preferAuthorization,
  );
  return grant ? { by: 'fixedAuthorization', authorizationId: grant.id } : null;
}
