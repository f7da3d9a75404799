import {
  api,
  type ParamAction,
  type ParamListRow,
  type ParamValType,
  Permission,
  paramListRow,
  ResultCode,
} from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_FLAGS } from '../src/modules/params/feature-flags.ts';
import { param } from '../src/modules/params/params.schema.ts';
import { SETTINGS } from '../src/modules/params/settings.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

/** Parameter names start with a letter: uniqueName's hex part is fine after a prefix. */
const paramName = (prefix = 'P') => uniqueName(prefix);

describe.each(databases)('parameters ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, postRaw, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = async (extra: Record<string, unknown> = {}) => {
    const body = { name: paramName(), valType: 'string' as const, val: 'v', ...extra };
    const response = await post(api.params.save, body);
    expectOk(response);
    return { id: response.body.data.id, name: body.name as string };
  };
  const byName = async (name: string) => (await t.db.select().from(param).where(eq(param.name, name)))[0];

  describe('built-in settings', () => {
    it('are seeded with their defaults in group setting, with a description', async () => {
      for (const setting of SETTINGS) {
        const row = await byName(setting.name);
        expect(row, setting.name).toMatchObject({
          val: setting.defVal,
          defVal: setting.defVal,
          valType: setting.valType,
          group: 'setting',
          editable: true,
        });
        expect(row!.desc).toBeTruthy();
      }
      expect(Object.fromEntries(SETTINGS.map((s) => [s.name, s.defVal]))).toEqual({
        ADCode: '810000',
        DoorOpenTimeout: '30',
        LngLat: '114.1694,22.3193',
        MarkerSearchDistance: '500',
        MobileAppRegist: 'false',
        TaskNeedAudit: 'true',
      });
    });

    it('are answered by their named endpoints to every signed-in user', async () => {
      const user = await t.createStaff();
      const token = await tokenOf(user);
      for (const [url, value] of [
        [api.params.getADCode, '810000'],
        [api.params.getLngLat, '114.1694,22.3193'],
        [api.params.getMarkerSearchDistance, '500'],
        [api.params.getMobileAppRegist, 'false'],
        [api.params.getTaskNeedAudit, 'true'],
      ] as const) {
        const response = await get(url, {}, token);
        expectOk(response);
        expect(response.body.data, url.path).toBe(value);
      }
    });

    it('keep the values administrators set when seeded again', async () => {
      await t.setParam('MarkerSearchDistance', '750');
      await t.setParam('StrongPassword', 'false');
      await t.db.delete(param).where(eq(param.name, 'TaskNeedAudit'));
      try {
        await t.services.params.seedDefaults();
        expect((await byName('MarkerSearchDistance'))!.val).toBe('750');
        expect((await byName('StrongPassword'))!.val).toBe('false');
        expect((await byName('TaskNeedAudit'))!.val).toBe('true');
        expect((await get(api.params.getMarkerSearchDistance)).body.data).toBe('750');
      } finally {
        await t.setParam('MarkerSearchDistance', '500');
        await t.setParam('StrongPassword', 'true');
      }
    });

    it('cannot be deleted (1041), renamed or retyped, but their value can change', async () => {
      for (const name of ['ADCode', FEATURE_FLAGS[0]!.name]) {
        const row = (await byName(name))!;
        expectCode(await get(api.params.del, { id: row.id }), ResultCode.ParamBuiltIn);
        expect(await byName(name)).toBeDefined();
      }
      const adCode = (await byName('ADCode'))!;
      const { id, name, valType, val, cls, defVal, desc, group } = adCode;
      const current = { id, name, valType: valType as ParamValType, val, cls, defVal, desc, group };
      expectInvalid(await post(api.params.update, { ...current, name: 'ADCode2' }), ['name']);
      expectInvalid(await post(api.params.update, { ...current, valType: 'number' }), ['valType']);
      expectInvalid(await postRaw(api.params.update, { ...current, editable: false }), ['editable']);
      expectOk(await post(api.params.update, { ...current, val: '820000' }));
      expect((await get(api.params.getADCode)).body.data).toBe('820000');
      expectOk(await post(api.params.update, current));
    });
  });

  describe('values the system reads', () => {
    const current = async (name: string) => {
      const { id, valType, val, cls, defVal, desc, group } = (await byName(name))!;
      return { id, name, valType: valType as ParamValType, val, cls, defVal, desc, group };
    };

    it('are refused outside their range, with the range in the message (finding: ingest stopped)', async () => {
      const door = await current('DoorOpenTimeout');
      for (const val of ['99999999999999999999', '-5', '1.5', ' ', '1441', '1e3']) {
        const response = await post(api.params.update, { ...door, val }, undefined, 'en');
        expectInvalid(response, ['val']);
        const [issue] = response.body.data as unknown as { message: string }[];
        expect(issue!.message, val).toBe(
          val === ' ' ? 'Enter a number' : 'Must be a whole number from 0 to 1440',
        );
      }
      const distance = await current('MarkerSearchDistance');
      for (const val of ['0', '50001', '12.5']) {
        expectInvalid(await post(api.params.update, { ...distance, val }), ['val']);
      }
      const lngLat = await current('LngLat');
      for (const val of ['hello', '114.1694', '200,22', '114,95', '114,22,1']) {
        const response = await post(api.params.update, { ...lngLat, val }, undefined, 'zh-TW');
        expectInvalid(response, ['val']);
        expect((response.body.data as unknown as { message: string }[])[0]!.message).toContain('經度');
      }
      // Nothing was stored.
      expect((await byName('DoorOpenTimeout'))!.val).toBe('30');
      expect((await byName('LngLat'))!.val).toBe('114.1694,22.3193');
    });

    it('are taken within their range', async () => {
      try {
        for (const [name, val] of [
          ['DoorOpenTimeout', '0'],
          ['DoorOpenTimeout', '1440'],
          ['MarkerSearchDistance', '50000'],
          ['LngLat', '-73.9857, 40.7484'],
        ] as const) {
          expectOk(await post(api.params.update, { ...(await current(name)), val }));
          expect((await byName(name))!.val).toBe(val);
        }
      } finally {
        await t.setParam('DoorOpenTimeout', '30');
        await t.setParam('MarkerSearchDistance', '500');
        await t.setParam('LngLat', '114.1694,22.3193');
      }
    });

    it('of a number type are numbers, not blanks, for any parameter', async () => {
      expectInvalid(await post(api.params.save, { name: paramName(), valType: 'number', val: ' ' }), ['val']);
      await create({ valType: 'number', val: '12.5' });
    });
  });

  describe('reading', () => {
    it('getByName answers the value, the default when no value is set, or null', async () => {
      const withValue = await create({ val: 'x1' });
      const withDefault = await create({ val: null, defVal: 'fallback' });
      const empty = await create({ val: null });
      expect((await get(api.params.getByName, { name: withValue.name })).body.data).toBe('x1');
      expect((await get(api.params.getByName, { name: withDefault.name })).body.data).toBe('fallback');
      expect((await get(api.params.getByName, { name: empty.name })).body.data).toBeNull();
      const missing = await get(api.params.getByName, { name: 'NoSuchParam' });
      expectOk(missing);
      expect(missing.body.data).toBeNull();
    });

    it('getMap answers name to value of the parameters of one class', async () => {
      const cls = paramName('cls');
      const a = await create({ cls, val: '1', valType: 'number' });
      const b = await create({ cls, val: 'true', valType: 'boolean' });
      await create({ cls: paramName('other'), val: 'no' });
      expect((await get(api.params.getMap, { clzName: cls })).body.data).toEqual({
        [a.name]: '1',
        [b.name]: 'true',
      });
      const map = (await get(api.params.getMap, { clzName: 'map' })).body.data;
      expect(Object.keys(map).sort()).toEqual(['ADCode', 'LngLat', 'MarkerSearchDistance']);
      expect((await get(api.params.getMap, { clzName: 'nothing-here' })).body.data).toEqual({});
    });

    it('pages rows by name and group, sorted; getAll and getById give whole rows', async () => {
      const tag = paramName('Pg');
      const group = paramName('grp');
      const ids: string[] = [];
      for (const suffix of ['c', 'a', 'b']) ids.push((await create({ name: `${tag}${suffix}`, group })).id);
      const page = await get(api.params.queryPageByName, { name: tag.toLowerCase(), sort: 'name' });
      expectOk(page);
      expect(page.body.data.total).toBe(3);
      expect(page.body.data.rows.map((r) => r.name)).toEqual([`${tag}a`, `${tag}b`, `${tag}c`]);
      for (const row of page.body.data.rows) expect(paramListRow.strict().parse(row)).toEqual(row);
      const desc = await get(api.params.queryPageByName, {
        group,
        sort: 'name',
        ascending: 'false',
        pageSize: '2',
      });
      expect(desc.body.data.total).toBe(3);
      expect(desc.body.data.rows.map((r) => r.name)).toEqual([`${tag}c`, `${tag}b`]);
      expectInvalid(await get(api.params.queryPageByName, { sort: 'val' }), ['sort']);

      const all = (await get(api.params.getAll)).body.data;
      expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([...ids]));
      expect(all.map((r) => r.name)).toEqual(expect.arrayContaining(SETTINGS.map((s) => s.name)));
      const one = await get(api.params.getById, { id: ids[0]! });
      expect(one.body.data).toMatchObject({ id: ids[0], name: `${tag}c`, group, val: 'v', editable: true });
      expectCode(await get(api.params.getById, { id: 'no-such-param' }), ResultCode.NotFound);
    });
  });

  describe('writing', () => {
    it('refuses values that do not fit their type', async () => {
      for (const [valType, val] of [
        ['number', 'abc'],
        ['boolean', 'yes'],
        ['json', '{not json'],
      ] as const) {
        expectInvalid(await post(api.params.save, { name: paramName(), valType, val }), ['val']);
      }
      expectInvalid(
        await post(api.params.save, { name: paramName(), valType: 'json', val: '{}', defVal: '[' }),
        ['defVal'],
      );
      await create({ valType: 'json', val: '{"a":[1,2]}' });
    });

    it('keeps names unique (1021)', async () => {
      const first = await create();
      const taken = await post(api.params.save, { name: first.name, valType: 'string' }, undefined, 'en');
      expectCode(taken, ResultCode.NameTaken);
      expect(taken.body.message).toBe(`The name "${first.name}" is already in use`);
      const second = await create();
      expectCode(
        await post(api.params.update, { id: second.id, name: first.name, valType: 'string' }),
        ResultCode.NameTaken,
      );
      expectCode(await post(api.params.save, { name: 'ADCode', valType: 'string' }), ResultCode.NameTaken);
    });

    it('updates and deletes an editable parameter', async () => {
      const created = await create({ desc: 'before' });
      expectOk(
        await post(api.params.update, {
          id: created.id,
          name: created.name,
          valType: 'number',
          val: '42',
          desc: 'after',
        }),
      );
      expect(await byName(created.name)).toMatchObject({ valType: 'number', val: '42', desc: 'after' });
      expectOk(await get(api.params.del, { id: created.id }));
      expect(await byName(created.name)).toBeUndefined();
      expectCode(await get(api.params.del, { id: created.id }), ResultCode.NotFound);
      expectCode(
        await post(api.params.update, { id: created.id, name: created.name, valType: 'string' }),
        ResultCode.NotFound,
      );
    });

    it('never updates (1040) or deletes a non-editable parameter', async () => {
      const locked = await create({ editable: false, val: 'fixed' });
      expectCode(
        await post(api.params.update, {
          id: locked.id,
          name: locked.name,
          valType: 'string',
          val: 'changed',
        }),
        ResultCode.ParamNotEditable,
      );
      expectCode(
        await post(api.params.saveOrUpdate, {
          id: locked.id,
          name: locked.name,
          valType: 'string',
          val: 'changed',
        }),
        ResultCode.ParamNotEditable,
      );
      expectCode(await get(api.params.del, { id: locked.id }), ResultCode.ParamNotEditable);
      expect(await byName(locked.name)).toMatchObject({ val: 'fixed' });
    });

    it('offers on each row of the list exactly what the server then does (abilities)', async () => {
      const editable = await create();
      const locked = await create({ editable: false });
      const calls: Record<ParamAction, (r: ParamListRow) => Promise<{ body: { success: boolean } }>> = {
        update: ({ id, name, valType, val, cls, defVal, desc, group }) =>
          post(api.params.update, { id, name, valType, val, cls, defVal, desc, group }),
        delete: (r) => get(api.params.del, { id: r.id }),
      };
      const offered: Record<string, ParamListRow['abilities']> = {};
      for (const name of [editable.name, locked.name, 'ADCode']) {
        const rows = (await get(api.params.queryPageByName, { name })).body.data.rows;
        const listed = rows.find((r) => r.name === name)!;
        offered[name] = listed.abilities;
        for (const action of Object.keys(calls) as ParamAction[]) {
          expect((await calls[action](listed)).body.success, `${action} of ${name}`).toBe(
            listed.abilities[action],
          );
        }
      }
      expect(offered).toEqual({
        [editable.name]: { update: true, delete: true },
        [locked.name]: { update: false, delete: false },
        ADCode: { update: true, delete: false },
      });
    });

    it('saveOrUpdate without an id also needs param.create (403); with an id it updates', async () => {
      const updater = await t.createStaff({ permissions: [Permission.ParamUpdate] });
      const creator = await t.createStaff({ permissions: [Permission.ParamUpdate, Permission.ParamCreate] });
      const name = paramName();
      expectCode(
        await post(api.params.saveOrUpdate, { name, valType: 'string' }, await tokenOf(updater)),
        ResultCode.Forbidden,
      );
      expect(await byName(name)).toBeUndefined();
      const created = await post(
        api.params.saveOrUpdate,
        { name, valType: 'string' },
        await tokenOf(creator),
      );
      expectOk(created);
      const id = created.body.data.id;
      const updated = await post(
        api.params.saveOrUpdate,
        { id, name, valType: 'string', val: 'new' },
        await tokenOf(updater),
      );
      expect(updated.body.data).toEqual({ id });
      expect(await byName(name)).toMatchObject({ id, val: 'new' });
    });
  });
});
