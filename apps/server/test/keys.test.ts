import { api, Permission, ResultCode } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockKey } from '../src/modules/devices/devices.schema.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

describe.each(databases)('keys ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, createDepartment, staffIn, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const createKey = async (form: object) => {
    const response = await post(api.key.save, {
      name: uniqueName('Key'),
      code: uniqueName('K'),
      ...form,
    });
    expectOk(response);
    return response.body.data.id;
  };
  const page = async (query: Record<string, string>) => {
    const response = await get(api.key.queryPage, query);
    expectOk(response);
    return response.body.data;
  };
  const rowOf = async (id: string, keyword: string) =>
    (await page({ keyword })).rows.find((r) => r.id === id);

  it('are added, listed with holder and department, updated and deleted', async () => {
    const dept = await createDepartment(uniqueName('Depot'));
    const holder = await staffIn(dept);
    const code = uniqueName('CRUD');
    const id = await createKey({
      name: 'Cabinet key',
      code,
      staffId: holder.id,
      deptId: dept,
      desc: 'Spare',
    });

    const row = await rowOf(id, code);
    expect(row).toMatchObject({
      name: 'Cabinet key',
      code,
      staffId: holder.id,
      staffName: holder.name,
      holderDisabled: false,
      deptId: dept,
      desc: 'Spare',
    });
    expect(row!.deptName).toMatch(/^Depot_/);
    expect(Number.isNaN(Date.parse(row!.createdAt))).toBe(false);

    expectOk(await post(api.key.update, { id, name: 'Gate key', code, staffId: '', deptId: null, desc: '' }));
    expect(await rowOf(id, code)).toMatchObject({
      name: 'Gate key',
      staffId: null,
      staffName: null,
      holderDisabled: false,
      deptId: null,
      deptName: null,
      desc: null,
    });

    expectOk(await get(api.key.del, { id }));
    expect(await t.db.select().from(lockKey).where(eq(lockKey.id, id))).toEqual([]);
    expectCode(await get(api.key.del, { id }), ResultCode.NotFound);
    expectCode(await post(api.key.update, { id, name: 'X', code }), ResultCode.NotFound);
  });

  it('keep codes unique ignoring case (1103)', async () => {
    const code = uniqueName('Dup');
    const id = await createKey({ code });
    const taken = await post(api.key.save, { name: 'Other', code: code.toUpperCase() }, undefined, 'en');
    expectCode(taken, ResultCode.CodeTaken);
    expect(taken.body.message).toBe(`"${code.toUpperCase()}" is already in use`);
    const other = await createKey({});
    expectCode(
      await post(api.key.update, { id: other, name: 'Other', code: code.toLowerCase() }),
      ResultCode.CodeTaken,
    );
    expectOk(await post(api.key.update, { id, name: 'Same', code: code.toLowerCase() }));
  });

  it('refuse an unknown holder or department, and an invalid form', async () => {
    const unknown = await post(
      api.key.save,
      { name: 'K', code: uniqueName('K'), staffId: 'nobody' },
      undefined,
      'en',
    );
    expectInvalid(unknown, ['staffId']);
    expect(unknown.body.data).toEqual([{ path: 'staffId', message: 'Invalid format' }]);
    expectInvalid(
      await post(api.key.save, { name: 'K', code: uniqueName('K'), staffId: 'nobody', deptId: 'none' }),
      ['staffId', 'deptId'],
    );
    expectInvalid(await post(api.key.save, { name: '', code: '' }), ['name', 'code']);
  });

  it('flag a key held by a disabled staff member', async () => {
    const tag = uniqueName('Flag');
    const holder = await t.createStaff();
    const other = await t.createStaff();
    const held = await createKey({ code: `${tag}-held`, staffId: holder.id });
    const otherKey = await createKey({ code: `${tag}-other`, staffId: other.id });
    const free = await createKey({ code: `${tag}-free` });

    expectOk(await get(api.staff.enable, { id: holder.id, enable: 'false' }));
    expect(await rowOf(held, tag)).toMatchObject({ holderDisabled: true });
    expect((await page({ keyword: tag, holderDisabled: 'true' })).rows.map((r) => r.id)).toEqual([held]);
    expect(
      (await page({ keyword: tag, holderDisabled: 'false', sort: 'code' })).rows.map((r) => r.id),
    ).toEqual([free, otherKey]);

    await t.db.update(staff).set({ status: 'disabled' }).where(eq(staff.id, other.id));
    expect((await page({ keyword: tag, holderDisabled: 'true' })).total).toBe(2);
    expectOk(await get(api.staff.enable, { id: holder.id, enable: 'true' }));
    expect(await rowOf(held, tag)).toMatchObject({ holderDisabled: false });
  });

  it('are searched by name or code, holder and department (with the departments below), and sorted', async () => {
    const tag = uniqueName('Find');
    const region = await createDepartment(uniqueName('Region'));
    const depot = await createDepartment(uniqueName('Depot'), region);
    const alice = await staffIn(depot);
    const bob = await staffIn(region);
    const a = await createKey({ name: `${tag} Alpha`, code: `${tag}-3`, staffId: alice.id, deptId: depot });
    const b = await createKey({ name: 'Bravo', code: `${tag}-1`, staffId: bob.id, deptId: region });
    const c = await createKey({ name: `${tag} Charlie`, code: `${tag}-2` });

    expect((await page({ keyword: tag.toUpperCase(), sort: 'name' })).rows.map((r) => r.id)).toEqual([
      b,
      a,
      c,
    ]);
    expect((await page({ keyword: tag, sort: 'code', ascending: 'false' })).rows.map((r) => r.id)).toEqual([
      a,
      c,
      b,
    ]);
    expect((await page({ keyword: tag, staffId: alice.id })).rows.map((r) => r.id)).toEqual([a]);
    expect((await page({ keyword: tag, deptId: region, sort: 'code' })).rows.map((r) => r.id)).toEqual([
      b,
      a,
    ]);
    expect((await page({ keyword: tag, deptId: depot })).rows.map((r) => r.id)).toEqual([a]);

    for (const sort of ['name', 'code', 'staffName', 'deptName', 'holderDisabled', 'desc', 'createdAt']) {
      const result = await page({ keyword: tag, sort, ascending: 'true' });
      expect(result.total).toBe(3);
    }
    const byHolder = await page({ keyword: tag, sort: 'staffName' });
    expect(byHolder.rows.map((r) => r.staffName)).toEqual([...[alice.name, bob.name].sort(), null]);
    const paged = await page({ keyword: tag, sort: 'code', pageSize: '2', pageIndex: '2' });
    expect(paged).toMatchObject({ total: 3, rows: [{ id: a }] });
    expectInvalid(await get(api.key.queryPage, { sort: 'nope' }), ['sort']);
  });

  it('are in use unless reported lost or disabled, searched by state, and keep their state on edit', async () => {
    const code = uniqueName('STATE');
    const id = await createKey({ code });
    expect((await rowOf(id, code))?.state).toBe('normal');
    const lost = { id, name: 'Lost key', code, state: 'lost' as const };
    expectOk(await post(api.key.update, lost));
    expect((await rowOf(id, code))?.state).toBe('lost');
    expect((await page({ keyword: code, state: 'lost' })).rows.map((r) => r.id)).toEqual([id]);
    expect((await page({ keyword: code, state: 'normal' })).rows).toEqual([]);
    expectInvalid(await post(api.key.update, { ...lost, state: 'broken' as never }), ['state']);
    const [stored] = await t.db.select({ state: lockKey.state }).from(lockKey).where(eq(lockKey.id, id));
    expect(stored?.state).toBe('lost');
  });

  it('need the key permissions', async () => {
    const reader = await tokenOf(await t.createStaff({ permissions: [Permission.KeyRead] }));
    expectOk(await get(api.key.queryPage, {}, reader));
    expectCode(await post(api.key.save, { name: 'K', code: uniqueName('K') }, reader), ResultCode.Forbidden);
    expectCode(await get(api.key.del, { id: 'x' }, reader), ResultCode.Forbidden);
    const nobody = await tokenOf(await t.createStaff());
    expectCode(await get(api.key.queryPage, {}, nobody), ResultCode.Forbidden);
  });
});
