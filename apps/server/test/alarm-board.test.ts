import { ALARM_BOARD_PATH, api, Permission, ResultCode, translateValidation } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/lib/password-hash.ts';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { alarmBoardLink } from '../src/modules/alarms/alarm-board.schema.ts';
import { deviceAlarm } from '../src/modules/alarms/alarms.schema.ts';
import { boardUsername } from '../src/modules/alarms/index.ts';
import { station } from '../src/modules/org/org.schema.ts';
import { boardCodeOf } from './support/alarm-board.ts';
import { createTestApp, freshAddress, openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk } from './support/org.ts';

const HOUR = 3_600_000;

/** The code of a link's address, `/warningRecord#code=…` (in the fragment, never sent to a server). */
function codeOf(path: string): string {
  expect(path.startsWith(`${ALARM_BOARD_PATH}#code=`)).toBe(true);
  return boardCodeOf(path);
}

/**
 * The control-room board (docs/alarms.md): administrators make display links for a station; a link's
 * one-time code is exchanged once for a display session that reads that station's open alarms and nothing
 * else, until the link is revoked.
 */
describe.each(databases)('control-room board ($kind)', (kind) => {
  let t: TestApp;
  let admin: string;
  let otherStation: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    const manager = await t.createStaff({ permissions: [Permission.AlarmBoardManage] });
    admin = await t.signIn(manager.name, manager.password);
    otherStation = uniqueName('station');
    await t.db.insert(station).values({ id: otherStation, name: 'Other station' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const newLink = async (stationId = DEFAULT_STATION.id, app = t) => {
    const created = await app.call(api.alarmBoard.save, {
      token: admin,
      body: { name: uniqueName('Wall'), stationId },
    });
    expectOk(created);
    return { id: created.body.data.id, code: codeOf(created.body.data.path) };
  };

  const exchange = (code: string, remoteAddress = freshAddress(), app = t) =>
    app.call(api.alarmBoard.exchange, { body: { code }, remoteAddress, lang: 'en' });

  const openAlarm = async (stationId: string, content: string) => {
    const typeId = await insertDeviceTypeRow(t.db);
    const unitId = await insertUnitRow(t.db);
    const deviceId = await insertDeviceRow(t.db, {
      unitId,
      typeId,
      name: uniqueName('Door'),
      code: uniqueName('C'),
    });
    const [row] = await t.db
      .insert(deviceAlarm)
      .values({
        stationId,
        ruleName: 'Door left open',
        deviceId,
        content,
        severity: 'critical',
        state: 'Warn',
        warnTime: new Date(),
      })
      .returning({ id: deviceAlarm.id });
    return row!.id;
  };

  it('exchanges a code once for a display session that reads its station’s open alarms', async () => {
    const { id, code } = await newLink();
    const mine = await openAlarm(DEFAULT_STATION.id, 'Door 3 open');
    const theirs = await openAlarm(otherStation, 'Elsewhere');
    await t.db.update(deviceAlarm).set({ state: 'Normal' }).where(eq(deviceAlarm.content, 'never'));

    const session = await exchange(code, '10.9.8.7');
    expectOk(session);
    expect(session.body.data).toMatchObject({
      stationId: DEFAULT_STATION.id,
      stationName: DEFAULT_STATION.name,
    });
    const token = session.body.data.token;

    const board = await t.call(api.alarmBoard.openAlarms, { token, remoteAddress: '10.9.8.7' });
    expectOk(board);
    const ids = board.body.data.rows.map((r) => r.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect(board.body.data.rows.find((r) => r.id === mine)).toMatchObject({
      content: 'Door 3 open',
      severity: 'critical',
    });

    // The code is used up: a second exchange is refused, and counted as a failure.
    expectCode(await exchange(code), ResultCode.AlarmBoardCodeInvalid);

    const [link] = await t.db.select().from(alarmBoardLink).where(eq(alarmBoardLink.id, id));
    expect(link?.codeHash).toBeNull();
    expect(link?.lastUsedIp).toBe('10.9.8.7');
    const listed = await t.call(api.alarmBoard.queryPage, { token: admin, query: {} });
    expectOk(listed);
    expect(listed.body.data.rows.find((r) => r.id === id)).toMatchObject({
      state: 'active',
      codeExpiresAt: null,
      lastUsedIp: '10.9.8.7',
    });
  });

  it('stores only a hash of the code and refuses an unknown one', async () => {
    const { id, code } = await newLink();
    const [link] = await t.db.select().from(alarmBoardLink).where(eq(alarmBoardLink.id, id));
    expect(link?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(link?.codeHash).not.toContain(code);
    const refused = await exchange('not-a-code', freshAddress());
    expectCode(refused, ResultCode.AlarmBoardCodeInvalid);
    expect(refused.body.message).toBe(
      'This alarm board link is invalid, already used or expired: ask an administrator for a new one',
    );
  });

  it('refuses an expired code; a fresh code works and replaces the one before', async () => {
    let now = Date.now();
    const later = await createTestApp(t.database, { services: { now: () => new Date(now) } });
    try {
      const { id, code } = await newLink(DEFAULT_STATION.id, later);
      now += 24 * HOUR + 1000;
      expectCode(await exchange(code, freshAddress(), later), ResultCode.AlarmBoardCodeInvalid);

      const first = await later.call(api.alarmBoard.newCode, { token: admin, query: { id } });
      expectOk(first);
      const second = await later.call(api.alarmBoard.newCode, { token: admin, query: { id } });
      expectOk(second);
      expect(second.body.data.expiresAt).toBe(new Date(now + 24 * HOUR).toISOString());
      expectCode(
        await exchange(codeOf(first.body.data.path), freshAddress(), later),
        ResultCode.AlarmBoardCodeInvalid,
      );
      expectOk(await exchange(codeOf(second.body.data.path), freshAddress(), later));
    } finally {
      await later.closeApp();
    }
  });

  it('revoking a link ends its display sessions and its code at once', async () => {
    const { id } = await newLink();
    const first = await t.call(api.alarmBoard.newCode, { token: admin, query: { id } });
    const token = (await exchange(codeOf(first.body.data.path))).body.data.token;
    const pending = await t.call(api.alarmBoard.newCode, { token: admin, query: { id } });
    expectOk(await t.call(api.alarmBoard.openAlarms, { token }));

    expectOk(await t.call(api.alarmBoard.revoke, { token: admin, query: { id } }));
    const after = await t.call(api.alarmBoard.openAlarms, { token, lang: 'en' });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({
      code: ResultCode.AlarmBoardRevoked,
      message: 'This alarm board link has been revoked',
    });
    expectCode(await exchange(codeOf(pending.body.data.path)), ResultCode.AlarmBoardRevoked);
    expectCode(
      await t.call(api.alarmBoard.newCode, { token: admin, query: { id } }),
      ResultCode.AlarmBoardRevoked,
    );
    const listed = await t.call(api.alarmBoard.queryPage, { token: admin, query: { state: 'revoked' } });
    expect(listed.body.data.rows.map((r) => r.id)).toContain(id);
  });

  it('gives the broker an identity reading only its station’s alarms, until revoked', async () => {
    const { id, code } = await newLink(otherStation);
    const token = (await exchange(code)).body.data.token;
    const login = await t.call(api.alarmBoard.brokerLogin, { token });
    expectOk(login);
    // One username per display session: the hash of its token, which tells nothing about the token.
    const username = boardUsername(hashToken(token));
    expect(login.body.data.username).toBe(username);
    const { board } = t.services.alarms;
    const identity = await board.brokerIdentity(username, token);
    expect(identity).toMatchObject({ kind: 'console', stationId: otherStation, kinds: ['alarm'] });
    expect(await board.brokerIdentity(boardUsername(hashToken('another')), token)).toBeNull();
    expect(await board.brokerIdentity(`board-${id}`, token)).toBeNull();
    expect(await board.brokerIdentity(username, 'wrong')).toBeNull();
    expect(await board.stands(hashToken(token))).toBe(true);

    await t.call(api.alarmBoard.revoke, { token: admin, query: { id } });
    expect(await board.brokerIdentity(username, token)).toBeNull();
    expect(await board.recheck(username, identity!.session)).toBeNull();
    expect(await board.stands(hashToken(token))).toBe(false);
  });

  it('a display session is read-only: staff endpoints refuse its token, the board refuses staff tokens', async () => {
    const { code } = await newLink();
    const token = (await exchange(code)).body.data.token;
    const staffCall = await t.call(api.auth.getUserInfo, { token });
    expect(staffCall.status).toBe(401);
    expectCode(staffCall, ResultCode.Unauthenticated);
    expectCode(await t.call(api.deviceAlarm.queryPage, { token, query: {} }), ResultCode.Unauthenticated);
    expectCode(
      await t.call(api.alarmBoard.revoke, { token, query: { id: 'x' } }),
      ResultCode.Unauthenticated,
    );
    const byStaff = await t.call(api.alarmBoard.openAlarms, { token: admin });
    expect(byStaff.status).toBe(401);
  });

  it('checks the station, and throttles wrong codes per address like sign-in', async () => {
    const unknownStation = await t.call(api.alarmBoard.save, {
      token: admin,
      body: { name: 'Wall', stationId: 'no-such-station' },
    });
    expectInvalid(unknownStation, ['stationId']);
    expect(unknownStation.body.data).toEqual([
      { path: 'stationId', message: translateValidation('v.unknownStation', 'zh-CN') },
    ]);
    const address = freshAddress();
    let last = await exchange('wrong', address);
    for (let i = 0; i < 12 && last.body.code !== ResultCode.TooManyRequests; i += 1) {
      last = await exchange('wrong', address);
    }
    expectCode(last, ResultCode.TooManyRequests);
    // Another address is not held back.
    expectCode(await exchange('wrong', freshAddress()), ResultCode.AlarmBoardCodeInvalid);
  });
});
