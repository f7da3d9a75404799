import { api, type EndpointBody, Permission, ResultCode } from '@uiot/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { damageLevel, powerLevel } from '../src/modules/levels/levels.schema.ts';
import { openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, expectInvalid, expectOk, fieldIssues, orgHelpers } from './support/org.ts';

type PowerForm = EndpointBody<typeof api.powerLevel.save>;
type DamageForm = EndpointBody<typeof api.damageLevel.save>;

const power = (level: number, startValue: number, endValue: number, extra: Partial<PowerForm> = {}) => ({
  level,
  startValue,
  endValue,
  availableDays: 30,
  state: 'normal' as const,
  ...extra,
});

const damage = (level: number, startValue: number, endValue: number, description?: string): DamageForm => ({
  level,
  startValue,
  endValue,
  ...(description === undefined ? {} : { description }),
});

/** Power levels (/sys/battery-power) and damage levels (/sys/damage) through the API, on the real database. */
describe.each(databases)('power and damage levels ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, postRaw, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  // The levels of a kind are one scale: each test starts from an empty one.
  beforeEach(async () => {
    await t.db.delete(powerLevel);
    await t.db.delete(damageLevel);
  });

  const savePower = async (form: PowerForm) => {
    const response = await post(api.powerLevel.save, form);
    expectOk(response);
    return response.body.data.id;
  };

  describe('power levels', () => {
    it('creates, lists by level, updates and deletes', async () => {
      const high = await savePower(power(3, 60, 100, { availableDays: 365 }));
      const low = await savePower(power(1, 0, 20, { state: 'lowPower', availableDays: 7 }));
      const middle = await savePower(power(2, 20, 60, { availableDays: 120 }));

      const page = await get(api.powerLevel.queryPage, { pageIndex: 1, pageSize: 10 });
      expectOk(page);
      expect(page.body.data.total).toBe(3);
      expect(page.body.data.rows.map((r) => [r.level, r.startValue, r.endValue, r.state])).toEqual([
        [1, 0, 20, 'lowPower'],
        [2, 20, 60, 'normal'],
        [3, 60, 100, 'normal'],
      ]);
      const lowPower = await get(api.powerLevel.queryPage, { state: 'lowPower' });
      expect(lowPower.body.data.rows.map((r) => r.id)).toEqual([low]);
      const sorted = await get(api.powerLevel.queryPage, { sort: 'startValue', ascending: false });
      expect(sorted.body.data.rows.map((r) => r.id)).toEqual([high, middle, low]);

      expectOk(
        await post(api.powerLevel.update, { id: middle, ...power(2, 20, 59.5, { availableDays: 100 }) }),
      );
      const all = await get(api.powerLevel.getAll);
      expectOk(all);
      expect(all.body.data.find((r) => r.id === middle)).toMatchObject({
        endValue: 59.5,
        availableDays: 100,
      });

      expectOk(await get(api.powerLevel.del, { id: middle }));
      expect((await get(api.powerLevel.getAll)).body.data.map((r) => r.level)).toEqual([1, 3]);
      expectCode(await get(api.powerLevel.del, { id: middle }), ResultCode.NotFound);
      expectCode(await post(api.powerLevel.update, { id: middle, ...power(2, 20, 60) }), ResultCode.NotFound);
    });

    it('lets ranges meet at an edge and refuses an overlap on the bound inside another range', async () => {
      await savePower(power(1, 0, 20, { state: 'lowPower' }));
      await savePower(power(2, 20, 60));
      const overlapping = await post(api.powerLevel.save, power(3, 59.99, 100), undefined, 'en');
      expectInvalid(overlapping, ['startValue']);
      expect(fieldIssues(overlapping)[0]?.message).toBe("The range overlaps another level's range");
      const covering = await post(api.powerLevel.save, power(3, 10, 70), undefined, 'zh-CN');
      expectInvalid(covering, ['startValue', 'endValue']);
      expect(fieldIssues(covering)[0]?.message).toBe('区间与其他等级的区间重叠');
      expect((await get(api.powerLevel.getAll)).body.data).toHaveLength(2);
    });

    it('refuses a level number already used, translated', async () => {
      await savePower(power(1, 0, 20));
      const taken = await post(api.powerLevel.save, power(1, 20, 40), undefined, 'zh-TW');
      expectInvalid(taken, ['level']);
      expect(fieldIssues(taken)[0]?.message).toBe('該等級已存在');
    });

    it('lets a level keep its own number and range when updated, not take another one', async () => {
      const first = await savePower(power(1, 0, 20));
      await savePower(power(2, 20, 60));
      expectOk(await post(api.powerLevel.update, { id: first, ...power(1, 0, 20, { availableDays: 3 }) }));
      expectInvalid(await post(api.powerLevel.update, { id: first, ...power(2, 0, 20) }), ['level']);
      expectInvalid(await post(api.powerLevel.update, { id: first, ...power(1, 0, 21) }), ['endValue']);
    });

    it('refuses bad numbers with translated messages', async () => {
      const endBelow = await post(api.powerLevel.save, power(1, 50, 50), undefined, 'en');
      expectInvalid(endBelow, ['endValue']);
      expect(fieldIssues(endBelow)[0]?.message).toBe('The end value must be greater than the start value');

      const outOfRange = await postRaw(
        api.powerLevel.save,
        { level: 0, startValue: -1, endValue: 100.5, availableDays: 1.5, state: 'empty' },
        undefined,
        'en',
      );
      expectInvalid(outOfRange, ['level', 'startValue', 'endValue', 'availableDays', 'state']);
      const messages = Object.fromEntries(fieldIssues(outOfRange).map((i) => [i.path, i.message]));
      expect(messages).toEqual({
        level: 'The level must be a whole number of 1 or more',
        startValue: 'Must be a number from 0 to 100 with at most two decimals',
        endValue: 'Must be a number from 0 to 100 with at most two decimals',
        availableDays: 'Enter a whole number (0 or more)',
        // A state outside the choices is invalid, not missing.
        state: 'Invalid format',
      });

      const notNumbers = await postRaw(
        api.powerLevel.save,
        { level: 'one', startValue: 'a', endValue: 10.123, availableDays: 0, state: 'normal' },
        undefined,
        'zh-CN',
      );
      expectInvalid(notNumbers, ['level', 'startValue', 'endValue']);
      expect(fieldIssues(notNumbers).find((i) => i.path === 'startValue')?.message).toBe('请输入数字');
      expect((await get(api.powerLevel.getAll)).body.data).toEqual([]);
    });
  });

  describe('damage levels', () => {
    it('creates, lists, updates and deletes, with a long description', async () => {
      const long = '严重损坏，须立即派员现场检查并更换锁具。'.repeat(10);
      const saved = await post(api.damageLevel.save, damage(2, 3, 10, long));
      expectOk(saved);
      const id = saved.body.data.id;
      expectOk(await post(api.damageLevel.save, damage(1, 0, 3)));

      const page = await get(api.damageLevel.queryPage, {});
      expectOk(page);
      expect(page.body.data.rows.map((r) => [r.level, r.startValue, r.endValue, r.description])).toEqual([
        [1, 0, 3, null],
        [2, 3, 10, long],
      ]);

      expectOk(await post(api.damageLevel.update, { id, ...damage(2, 3, 1000, 'Forced') }));
      expect((await get(api.damageLevel.getAll)).body.data[1]).toMatchObject({
        endValue: 1000,
        description: 'Forced',
      });
      expectOk(await get(api.damageLevel.del, { id }));
      expect((await get(api.damageLevel.getAll)).body.data.map((r) => r.level)).toEqual([1]);
    });

    it('keeps its scale apart from the power levels', async () => {
      await savePower(power(1, 0, 50));
      expectOk(await post(api.damageLevel.save, damage(1, 0, 50)));
    });

    it('refuses an overlap, a used number, and bad numbers', async () => {
      expectOk(await post(api.damageLevel.save, damage(1, 0, 5)));
      expectInvalid(await post(api.damageLevel.save, damage(2, 4, 8)), ['startValue']);
      expectInvalid(await post(api.damageLevel.save, damage(1, 5, 8)), ['level']);
      const bad = await post(api.damageLevel.save, damage(3, 10, 2_000_000), undefined, 'en');
      expectInvalid(bad, ['endValue']);
      expect(fieldIssues(bad)[0]?.message).toBe(
        'Must be a number from 0 to 1000000 with at most two decimals',
      );
    });
  });

  describe('permissions', () => {
    it('lets each key open only its own call', async () => {
      const reader = await t.createStaff({ permissions: [Permission.PowerLevelRead] });
      const readerToken = await tokenOf(reader);
      expectOk(await get(api.powerLevel.queryPage, {}, readerToken));
      expectCode(await post(api.powerLevel.save, power(1, 0, 20), readerToken), ResultCode.Forbidden);
      expectCode(await get(api.damageLevel.queryPage, {}, readerToken), ResultCode.Forbidden);

      const creator = await t.createStaff({ permissions: [Permission.DamageLevelCreate] });
      const creatorToken = await tokenOf(creator);
      const saved = await post(api.damageLevel.save, damage(1, 0, 3), creatorToken);
      expectOk(saved);
      expectCode(
        await post(api.damageLevel.update, { id: saved.body.data.id, ...damage(1, 0, 4) }, creatorToken),
        ResultCode.Forbidden,
      );
      expectCode(
        await get(api.damageLevel.del, { id: saved.body.data.id }, creatorToken),
        ResultCode.Forbidden,
      );
    });

    it('gives the battery bands to monitor readers, not to power level readers alone', async () => {
      const monitor = await t.createStaff({ permissions: [Permission.MonitorRead] });
      const bands = await get(api.powerLevel.batteryBands, {}, await tokenOf(monitor));
      expectOk(bands);
      expect(bands.body.data).toEqual({ lowBelow: 20, highFrom: 60, fromLevels: false });
      const reader = await t.createStaff({ permissions: [Permission.PowerLevelRead] });
      expectCode(await get(api.powerLevel.batteryBands, {}, await tokenOf(reader)), ResultCode.Forbidden);
    });
  });
});
