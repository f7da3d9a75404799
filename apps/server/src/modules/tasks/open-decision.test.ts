import {
  devTypeOpKey,
  LOCK_TASK_STATES,
  type LockTaskState,
  OPEN_METHODS,
  type OpenRefusal,
} from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AuthorizationGrant,
  mayClose,
  mayOpen,
  type OpenDecision,
  type OpenFacts,
  type OpeningKey,
  type OpeningStaff,
  type OpenRequest,
  reportedOpeningCover,
  type TaskGrant,
} from './open-decision.ts';

const HOUR = 3_600_000;
/** Every window below is [START, END); NOW is inside it. */
const START = Date.UTC(2025, 2, 1, 8);
const END = START + 8 * HOUR;
const NOW = START + HOUR;

/** Alice works at a station of line 1; she may operate NB padlocks (a sub type of padlocks). */
const ALICE: OpeningStaff = {
  id: 'alice',
  status: 'activated',
  departmentPath: ['station-a', 'line-1', 'metro'],
  isAdmin: false,
  permissions: new Set([devTypeOpKey('padlock-nb')]),
};
const staff = (over: Partial<OpeningStaff> = {}): OpeningStaff => ({ ...ALICE, ...over });
const LOCK = { id: 'lock-1', typeId: 'padlock-nb', mainTypeId: 'padlock' };
const KEY: OpeningKey = { id: 'key-1', state: 'normal', staffId: 'alice' };
const key = (over: Partial<OpeningKey> = {}): OpeningKey => ({ ...KEY, ...over });

/** An executing task of Alice's on lock-1 with any key, inside [START, END). */
const task = (over: Partial<TaskGrant> = {}): TaskGrant => ({
  id: 't1',
  state: 'Execute',
  startTime: START,
  endTime: END,
  allDevice: false,
  operatorIds: ['alice'],
  items: [{ deviceId: 'lock-1', keyId: null }],
  ...over,
});
/** A forever authorisation of Alice's on lock-1. */
const auth = (over: Partial<AuthorizationGrant> = {}): AuthorizationGrant => ({
  id: 'a1',
  objectType: 'staff',
  objectId: 'alice',
  forever: true,
  startTime: null,
  endTime: null,
  allDevice: false,
  deviceIds: ['lock-1'],
  ...over,
});
/** A forever authorisation of the department (or one above it) on lock-1. */
const dept = (objectId: string, over: Partial<AuthorizationGrant> = {}) =>
  auth({ objectType: 'department', objectId, ...over });
/** The same, limited to [START, END). */
const bounded = (over: Partial<AuthorizationGrant> = {}) =>
  auth({ forever: false, startTime: START, endTime: END, ...over });

/** A remote open by Alice of lock-1 at NOW, with neither tasks nor authorisations unless given. */
const decide = (facts: Partial<OpenFacts> = {}, request: Partial<OpenRequest> = {}): OpenDecision =>
  mayOpen(
    { at: NOW, method: 'remote', ...request },
    { staff: ALICE, device: LOCK, key: null, tasks: [], authorizations: [], ...facts },
  );
/** A key opening with key-1, which Alice holds, unless the facts or the request say otherwise. */
const byKey = (facts: Partial<OpenFacts> = {}, request: Partial<OpenRequest> = {}) =>
  decide({ key: KEY, ...facts }, { method: 'key', keyId: 'key-1', ...request });
/** An opening at `at` under the given tasks. */
const taskAt = (at: number, ...tasks: TaskGrant[]) => decide({ tasks }, { at });
/** An opening at `at` under the given authorisations. */
const authAt = (at: number, ...authorizations: AuthorizationGrant[]) => decide({ authorizations }, { at });

const byTask = (taskId: string): OpenDecision => ({ allowed: true, by: 'task', taskId });
const byAuth = (authorizationId: string): OpenDecision => ({
  allowed: true,
  by: 'fixedAuthorization',
  authorizationId,
});
const refused = (refusal: OpenRefusal): OpenDecision => ({ allowed: false, refusal });

describe('mayOpen: the staff member', () => {
  it('refuses unknown staff', () => {
    expect(decide({ staff: null, tasks: [task()] })).toEqual(refused('staffUnknown'));
  });

  it('refuses a disabled account even with an allowing task and authorisation, admin included', () => {
    const facts = { tasks: [task()], authorizations: [auth()] };
    expect(decide({ ...facts, staff: staff({ status: 'disabled' }) })).toEqual(refused('staffDisabled'));
    expect(decide({ ...facts, staff: staff({ status: 'disabled', isAdmin: true }) })).toEqual(
      refused('staffDisabled'),
    );
  });

  it('checks the account before the key', () => {
    expect(byKey({ staff: staff({ status: 'disabled' }), key: null })).toEqual(refused('staffDisabled'));
  });
});

describe('mayOpen: the key of a key opening', () => {
  const tasks = [task()];
  it.each<[string, Partial<OpenFacts>, Partial<OpenRequest>, OpenDecision]>([
    ['allows a normal key Alice holds', {}, {}, byTask('t1')],
    ['refuses without a key id in the request', {}, { keyId: undefined }, refused('keyRequired')],
    ['refuses with a null key id', {}, { keyId: null }, refused('keyRequired')],
    ['refuses with an empty key id', {}, { keyId: '' }, refused('keyRequired')],
    ['refuses an unknown key', { key: null }, {}, refused('keyRequired')],
    ['refuses when the key found is not the one asked', {}, { keyId: 'key-2' }, refused('keyRequired')],
    ['refuses a lost key', { key: key({ state: 'lost' }) }, {}, refused('keyUnusable')],
    ['refuses a disabled key', { key: key({ state: 'disabled' }) }, {}, refused('keyUnusable')],
    ['refuses a key issued to another staff', { key: key({ staffId: 'bob' }) }, {}, refused('keyNotHeld')],
    ['refuses a key issued to nobody', { key: key({ staffId: null }) }, {}, refused('keyNotHeld')],
  ])('%s', (_, facts, request, expected) => {
    expect(byKey({ tasks, ...facts }, request)).toEqual(expected);
  });

  it('checks the key before the device-type grant', () => {
    expect(byKey({ tasks, key: key({ state: 'lost' }), staff: staff({ permissions: new Set() }) })).toEqual(
      refused('keyUnusable'),
    );
  });

  it('refuses a key other than the one the task binds to the device', () => {
    const bound = task({ items: [{ deviceId: 'lock-1', keyId: 'key-2' }] });
    expect(byKey({ tasks: [bound] })).toEqual(refused('notAuthorized'));
    expect(byKey({ tasks: [task({ items: [{ deviceId: 'lock-1', keyId: 'key-1' }] })] })).toEqual(
      byTask('t1'),
    );
  });

  it('allows any held key on an allDevice task without an item for the device', () => {
    expect(byKey({ tasks: [task({ allDevice: true, items: [] })] })).toEqual(byTask('t1'));
    const other = [{ deviceId: 'lock-9', keyId: 'key-9' }];
    expect(byKey({ tasks: [task({ allDevice: true, items: other })] })).toEqual(byTask('t1'));
  });

  it('keeps the key an item binds on an allDevice task', () => {
    const bound = task({ allDevice: true, items: [{ deviceId: 'lock-1', keyId: 'key-2' }] });
    expect(byKey({ tasks: [bound] })).toEqual(refused('notAuthorized'));
  });

  it('accepts the key of any of several items for the device', () => {
    const items = [
      { deviceId: 'lock-1', keyId: 'key-2' },
      { deviceId: 'lock-1', keyId: 'key-1' },
    ];
    expect(byKey({ tasks: [task({ items })] })).toEqual(byTask('t1'));
  });

  it('ignores keys for other methods', () => {
    const bound = task({ items: [{ deviceId: 'lock-1', keyId: 'key-2' }] });
    for (const method of OPEN_METHODS.filter((m) => m !== 'key')) {
      expect(decide({ tasks: [bound], key: key({ state: 'lost', staffId: 'bob' }) }, { method })).toEqual(
        byTask('t1'),
      );
    }
  });

  it('lets a fixed authorisation allow a key opening once the key passed', () => {
    expect(byKey({ authorizations: [auth()] })).toEqual(byAuth('a1'));
    expect(byKey({ authorizations: [auth()], key: key({ staffId: 'bob' }) })).toEqual(refused('keyNotHeld'));
  });
});

describe('mayOpen: the device-type grant', () => {
  const tasks = [task()];
  it('refuses a staff member without the grant, even with a task and an authorisation', () => {
    const none = staff({ permissions: new Set([devTypeOpKey('cabinet')]) });
    expect(decide({ staff: none, tasks, authorizations: [auth()] })).toEqual(refused('deviceTypeNotGranted'));
  });

  it('accepts the grant on the main type', () => {
    const main = staff({ permissions: new Set([devTypeOpKey('padlock')]) });
    expect(decide({ staff: main, tasks })).toEqual(byTask('t1'));
  });

  it('refuses when only a sibling sub type is granted', () => {
    const sibling = staff({ permissions: new Set([devTypeOpKey('padlock-lora')]) });
    expect(decide({ staff: sibling, tasks })).toEqual(refused('deviceTypeNotGranted'));
  });

  it('lets an admin without any grant open under a task', () => {
    const admin = staff({ isAdmin: true, permissions: new Set() });
    expect(decide({ staff: admin, tasks })).toEqual(byTask('t1'));
  });

  it('refuses an admin without a task or an authorisation', () => {
    const admin = staff({ isAdmin: true, permissions: new Set() });
    expect(decide({ staff: admin })).toEqual(refused('notAuthorized'));
  });
});

describe('mayOpen: lock tasks', () => {
  it.each<[string, number, OpenDecision]>([
    ['allows at the first millisecond of the window', START, byTask('t1')],
    ['refuses the millisecond before', START - 1, refused('outsideTaskWindow')],
    ['allows the last millisecond', END - 1, byTask('t1')],
    ['refuses at the end time itself', END, refused('outsideTaskWindow')],
  ])('%s', (_, at, expected) => {
    expect(taskAt(at, task())).toEqual(expected);
  });

  const byState: Record<LockTaskState, OpenDecision> = {
    New: refused('taskNotApproved'),
    Audit: refused('taskNotApproved'),
    Update: refused('taskNotApproved'),
    None: byTask('t1'),
    Execute: byTask('t1'),
    Finish: refused('notAuthorized'),
    Cancel: refused('notAuthorized'),
    ForceEnd: refused('notAuthorized'),
  };
  for (const state of LOCK_TASK_STATES) {
    it(`${state} inside the window: ${JSON.stringify(byState[state])}`, () => {
      expect(taskAt(NOW, task({ state }))).toEqual(byState[state]);
    });
  }

  it('lets a task finished since cover an opening that already happened in its window, and nothing else', () => {
    const happened = (at: number, state: TaskGrant['state']) =>
      decide({ tasks: [task({ state })] }, { at, method: 'bluetooth', happened: true });
    expect(happened(NOW, 'Finish')).toEqual(byTask('t1'));
    expect(happened(END, 'Finish')).toEqual(refused('outsideTaskWindow'));
    expect(happened(NOW, 'Cancel')).toEqual(refused('notAuthorized'));
    expect(happened(NOW, 'ForceEnd')).toEqual(refused('notAuthorized'));
    expect(happened(NOW, 'Audit')).toEqual(refused('taskNotApproved'));
    // Asked now (a remote open, a key download), a finished task allows nothing.
    expect(taskAt(NOW, task({ state: 'Finish' }))).toEqual(refused('notAuthorized'));
  });

  it('refuses an approved task outside its window but a pending one as not approved', () => {
    expect(taskAt(END, task({ state: 'None' }))).toEqual(refused('outsideTaskWindow'));
    expect(taskAt(END, task({ state: 'Audit' }))).toEqual(refused('taskNotApproved'));
  });

  it('names the pending audit before a window missed', () => {
    const late = task({ id: 't1', endTime: NOW });
    expect(taskAt(NOW, late, task({ id: 't2', state: 'Update' }))).toEqual(refused('taskNotApproved'));
  });

  it('refuses a task whose team does not include the staff member', () => {
    expect(taskAt(NOW, task({ operatorIds: ['bob', 'carol'] }))).toEqual(refused('notAuthorized'));
  });

  it('refuses a task without an item for the device', () => {
    expect(taskAt(NOW, task({ items: [{ deviceId: 'lock-2', keyId: null }] }))).toEqual(
      refused('notAuthorized'),
    );
  });

  it('does not name a task that does not cover the request in the refusal', () => {
    expect(taskAt(NOW, task({ state: 'Audit', operatorIds: ['bob'] }))).toEqual(refused('notAuthorized'));
    expect(taskAt(END, task({ items: [] }))).toEqual(refused('notAuthorized'));
  });

  it('allows every device on an allDevice task', () => {
    expect(taskAt(NOW, task({ allDevice: true, items: [] }))).toEqual(byTask('t1'));
  });

  it('picks the allowing task that ends first, then by id', () => {
    const later = task({ id: 'a-later', endTime: END + HOUR });
    const sooner = task({ id: 'z-sooner' });
    const twin = task({ id: 'm-twin' });
    expect(taskAt(NOW, later, sooner)).toEqual(byTask('z-sooner'));
    expect(taskAt(NOW, sooner, twin, later)).toEqual(byTask('m-twin'));
    expect(taskAt(NOW, twin, sooner)).toEqual(byTask('m-twin'));
  });

  it('skips tasks that do not allow when choosing', () => {
    const ended = task({ id: 'a-ended', endTime: NOW });
    const pending = task({ id: 'b-pending', state: 'New', endTime: NOW + 1 });
    expect(taskAt(NOW, ended, pending, task({ id: 'c' }))).toEqual(byTask('c'));
  });

  it('prefers a task to an authorisation', () => {
    expect(decide({ tasks: [task()], authorizations: [auth({ id: 'a0' })] })).toEqual(byTask('t1'));
  });

  it('falls back to an authorisation when no task allows', () => {
    expect(decide({ tasks: [task({ state: 'Audit' })], authorizations: [auth()] })).toEqual(byAuth('a1'));
  });
});

describe('mayOpen: fixed authorisations', () => {
  const A1 = byAuth('a1');
  const NO = refused('notAuthorized');
  it.each<[string, AuthorizationGrant, OpenDecision]>([
    ['allows one for the staff member', auth(), A1],
    ['refuses one for another staff member', auth({ objectId: 'bob' }), NO],
    ['allows one for the department', dept('station-a'), A1],
    ['allows one for a parent department', dept('metro'), A1],
    ['refuses one for another department', dept('line-2'), NO],
    ['does not read a staff id as a department', dept('alice'), NO],
    ['does not read a department id as a staff id', auth({ objectId: 'station-a' }), NO],
    ['allows one for every device', auth({ allDevice: true, deviceIds: [] }), A1],
    ['refuses one whose devices do not include it', auth({ deviceIds: ['lock-2', 'lock-3'] }), NO],
    ['refuses a time-bounded one without bounds', auth({ forever: false }), NO],
    ['refuses a time-bounded one missing its end', bounded({ endTime: null }), NO],
  ])('%s', (_, grant, expected) => {
    expect(authAt(NOW, grant)).toEqual(expected);
  });

  it('refuses a department authorisation after the staff member moved out of the department', () => {
    const grant = dept('station-a');
    const moved = staff({ departmentPath: ['station-b', 'line-1', 'metro'] });
    expect(decide({ staff: moved, authorizations: [grant] })).toEqual(refused('notAuthorized'));
    expect(decide({ staff: staff({ departmentPath: [] }), authorizations: [grant] })).toEqual(
      refused('notAuthorized'),
    );
  });

  it('allows a forever one at any time, its leftover times ignored', () => {
    for (const at of [0, START - 1, END, END + 1000 * HOUR]) expect(authAt(at, auth())).toEqual(byAuth('a1'));
    expect(authAt(END, auth({ startTime: START, endTime: END }))).toEqual(byAuth('a1'));
  });

  it.each<[string, number, OpenDecision]>([
    ['allows at the first millisecond of the window', START, byAuth('a1')],
    ['refuses the millisecond before', START - 1, refused('outsideTaskWindow')],
    ['allows the last millisecond', END - 1, byAuth('a1')],
    ['refuses at the end time itself', END, refused('outsideTaskWindow')],
  ])('time-bounded: %s', (_, at, expected) => {
    expect(authAt(at, bounded())).toEqual(expected);
  });

  it('chooses the staff member’s own before a department’s', () => {
    const department = dept('station-a', { id: 'a0', forever: false, startTime: START, endTime: END });
    expect(authAt(NOW, department, auth({ id: 'z9' }))).toEqual(byAuth('z9'));
  });

  it('chooses time-bounded before forever', () => {
    expect(authAt(NOW, auth({ id: 'a0' }), bounded({ id: 'z9' }))).toEqual(byAuth('z9'));
    const line = dept('line-1', { id: 'z9', forever: false, startTime: START, endTime: END });
    expect(authAt(NOW, dept('line-1', { id: 'a0' }), line)).toEqual(byAuth('z9'));
  });

  it('chooses by id among equals, whatever the order given', () => {
    expect(authAt(NOW, auth({ id: 'b' }), auth({ id: 'a' }), auth({ id: 'c' }))).toEqual(byAuth('a'));
    expect(authAt(NOW, bounded({ id: 'b' }), bounded({ id: 'a' }))).toEqual(byAuth('a'));
  });

  it('skips an authorisation outside its window when choosing', () => {
    expect(authAt(END, bounded({ id: 'a0' }), auth({ id: 'z9' }))).toEqual(byAuth('z9'));
  });
});

describe('mayOpen: inputs', () => {
  it('does not reorder the caller’s arrays', () => {
    const tasks = [task({ id: 'b' }), task({ id: 'a' })];
    const authorizations = [auth({ id: 'b' }), auth({ id: 'a' })];
    decide({ tasks, authorizations });
    expect(tasks.map((t) => t.id)).toEqual(['b', 'a']);
    expect(authorizations.map((a) => a.id)).toEqual(['b', 'a']);
  });

  it('refuses when the time is not a number', () => {
    expect(decide({ tasks: [task()], authorizations: [bounded()] }, { at: Number.NaN })).toEqual(
      refused('outsideTaskWindow'),
    );
  });
});

describe('mayClose: locking a lock remotely', () => {
  it('needs no task nor authorisation', () => {
    expect(mayClose({ staff: ALICE, device: LOCK })).toEqual({ allowed: true });
  });

  it('refuses unknown and disabled staff, admin included', () => {
    expect(mayClose({ staff: null, device: LOCK })).toEqual(refused('staffUnknown'));
    expect(mayClose({ staff: staff({ status: 'disabled', isAdmin: true }), device: LOCK })).toEqual(
      refused('staffDisabled'),
    );
  });

  it("needs the device type's grant, or the main type's, or role admin", () => {
    const other = { id: 'lock-2', typeId: 'cabinet', mainTypeId: 'cabinet' };
    expect(mayClose({ staff: ALICE, device: other })).toEqual(refused('deviceTypeNotGranted'));
    expect(mayClose({ staff: staff({ isAdmin: true }), device: other })).toEqual({ allowed: true });
    const mainGrant = staff({ permissions: new Set([devTypeOpKey('padlock')]) });
    expect(mayClose({ staff: mainGrant, device: LOCK })).toEqual({ allowed: true });
  });
});

describe('reportedOpeningCover: an opening a lock reported by itself', () => {
  const cover = (at: number, tasks: TaskGrant[] = [], authorizations: AuthorizationGrant[] = []) =>
    reportedOpeningCover(at, 'lock-1', tasks, authorizations);

  it('is covered by an approved task for the lock in its window, whoever its operators are', () => {
    expect(cover(NOW, [task({ operatorIds: ['bob'] })])).toEqual({ by: 'task', taskId: 't1' });
    expect(cover(NOW, [task({ allDevice: true, items: [] })])).toEqual({ by: 'task', taskId: 't1' });
    expect(cover(NOW, [task({ state: 'None' })])).toEqual({ by: 'task', taskId: 't1' });
  });

  it('is not covered by a task waiting for audit, ended, for another lock or outside its window', () => {
    for (const state of ['New', 'Audit', 'Update', 'Finish', 'Cancel', 'ForceEnd'] as const) {
      expect(cover(NOW, [task({ state })]), state).toBeNull();
    }
    expect(cover(NOW, [task({ items: [{ deviceId: 'lock-2', keyId: null }] })])).toBeNull();
    expect(cover(START - 1, [task()])).toBeNull();
    expect(cover(START, [task()])).toEqual({ by: 'task', taskId: 't1' });
    expect(cover(END - 1, [task()])).toEqual({ by: 'task', taskId: 't1' });
    expect(cover(END, [task()])).toBeNull();
  });

  it('is covered by an authorisation in force for the lock, a task preferred', () => {
    expect(cover(NOW, [], [auth()])).toEqual({ by: 'fixedAuthorization', authorizationId: 'a1' });
    expect(cover(NOW, [], [dept('metro', { allDevice: true, deviceIds: [] })])).toEqual({
      by: 'fixedAuthorization',
      authorizationId: 'a1',
    });
    expect(cover(END, [], [bounded()])).toBeNull();
    expect(cover(NOW, [], [auth({ deviceIds: ['lock-2'] })])).toBeNull();
    expect(cover(NOW, [task()], [auth()])).toEqual({ by: 'task', taskId: 't1' });
  });

  it('is not covered by nothing', () => {
    expect(cover(NOW)).toBeNull();
  });
});
