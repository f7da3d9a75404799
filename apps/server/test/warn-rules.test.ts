import { api, Permission, ResultCode, type WarnRuleForm } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceTypeRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, fieldIssues, orgHelpers } from './support/org.ts';

describe.each(databases)('warn rules and device properties ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, postRaw, createRole, createDepartment, tokenOf } = orgHelpers(() => t);

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const batteryBelow = (value: string) => ({
    propCode: 'battery',
    propName: 'Battery',
    propOrigin: 'Master' as const,
    propVal: value,
    valType: 'number' as const,
    conditionType: 'Lt' as const,
  });
  const ruleOf = (deviceTypeId: string, extra: Partial<WarnRuleForm> = {}) =>
    ({
      deviceTypeId,
      name: uniqueName('Rule'),
      formatMsg: '{device} battery low',
      ruleType: 'Instant',
      logicType: 'AND',
      items: [batteryBelow('20')],
      ...extra,
    }) as WarnRuleForm;
  const createRule = async (form: WarnRuleForm) => {
    const response = await post(api.warnRule.save, form);
    expectOk(response);
    return response.body.data.id;
  };
  const rulesOfType = async (deviceTypeId: string) => {
    const response = await get(api.warnRule.queryPage, { deviceTypeId });
    expectOk(response);
    return response.body.data.rows;
  };

  describe('property catalogue', () => {
    it("starts with the protocol's known fields, in its order, and takes extension properties", async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const first = await get(api.deviceProperty.queryByType, { deviceTypeId: typeId });
      expectOk(first);
      expect(first.body.data.map((p) => [p.code, p.valueType, p.builtIn, p.name])).toEqual([
        ['lockState', 'string', true, ''],
        ['doorState', 'string', true, ''],
        ['battery', 'number', true, ''],
        ['rssi', 'number', true, ''],
        ['runState', 'string', true, ''],
        ['online', 'boolean', true, ''],
      ]);
      // Nobody renamed them: the console shows their translated names, and offers a text field's values.
      expect(first.body.data[0]).toMatchObject({
        nameKey: 'monitor:runtime.column.lockState',
        values: ['open', 'closed'],
        valuesKey: 'monitor:openState',
      });
      const saved = await post(api.deviceProperty.save, {
        deviceTypeId: typeId,
        code: 'temperature',
        name: 'Temperature',
        origin: 'Extension',
        valueType: 'number',
        unit: '°C',
      });
      expectOk(saved);
      const after = await get(api.deviceProperty.queryByType, { deviceTypeId: typeId });
      expect(after.body.data.at(-1)).toMatchObject({
        code: 'temperature',
        unit: '°C',
        builtIn: false,
        nameKey: null,
        values: null,
        valuesKey: null,
      });
      // Read twice, the known fields are not added twice.
      expect(after.body.data).toHaveLength(7);
    });

    it('refuses a code the type already has for the origin, whatever its case', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const property = {
        deviceTypeId: typeId,
        name: 'Humidity',
        origin: 'Extension',
        valueType: 'number',
      } as const;
      expectOk(await post(api.deviceProperty.save, { ...property, code: 'humidity' }));
      expectCode(
        await post(api.deviceProperty.save, { ...property, code: 'Humidity' }),
        ResultCode.CodeTaken,
      );
      // The same code from the device itself is another property.
      expectOk(await post(api.deviceProperty.save, { ...property, code: 'humidity', origin: 'Master' }));
    });

    it('keeps the code and type of a known field, and never removes one', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const battery = (await get(api.deviceProperty.queryByType, { deviceTypeId: typeId })).body.data.find(
        (p) => p.code === 'battery',
      )!;
      const base = {
        id: battery.id,
        deviceTypeId: typeId,
        code: 'battery',
        origin: 'Master',
        valueType: 'number',
      } as const;
      expectOk(await post(api.deviceProperty.update, { ...base, name: 'Charge', unit: 'pct' }));
      expectCode(
        await post(api.deviceProperty.update, { ...base, name: 'Charge', valueType: 'string' }),
        ResultCode.PropertyBuiltIn,
      );
      expectCode(
        await post(api.deviceProperty.update, { ...base, name: 'Charge', code: 'charge' }),
        ResultCode.PropertyBuiltIn,
      );
      expectCode(await get(api.deviceProperty.del, { id: battery.id }), ResultCode.PropertyBuiltIn);
      const now = (await get(api.deviceProperty.queryByType, { deviceTypeId: typeId })).body.data.find(
        (p) => p.id === battery.id,
      );
      expect(now).toMatchObject({ code: 'battery', name: 'Charge', unit: 'pct', valueType: 'number' });
    });

    it('keeps a property a rule tests, naming the rule', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const saved = await post(api.deviceProperty.save, {
        deviceTypeId: typeId,
        code: 'waterLevel',
        name: 'Water level',
        origin: 'Extension',
        valueType: 'number',
      });
      expectOk(saved);
      const name = uniqueName('Flood');
      await createRule(
        ruleOf(typeId, {
          name,
          items: [
            { ...batteryBelow('5'), propCode: 'waterLevel', propOrigin: 'Extension', conditionType: 'Gt' },
          ],
        }),
      );
      const removed = await get(api.deviceProperty.del, { id: saved.body.data.id });
      expectCode(removed, ResultCode.PropertyInUse);
      expect(removed.body.message).toContain(name);
      const retyped = await post(api.deviceProperty.update, {
        id: saved.body.data.id,
        deviceTypeId: typeId,
        code: 'waterLevel',
        name: 'Water level',
        origin: 'Extension',
        valueType: 'string',
      });
      expectCode(retyped, ResultCode.PropertyInUse);
    });

    it('answers 404 for a type that does not exist', async () => {
      expectCode(await get(api.deviceProperty.queryByType, { deviceTypeId: 'nope' }), ResultCode.NotFound);
    });
  });

  describe('rules', () => {
    it('creates a rule with items, clear items and recipients, and lists it with their names', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const roleName = uniqueName('Ops');
      const roleId = await createRole(roleName);
      const deptName = uniqueName('Control');
      const deptId = await createDepartment(deptName);
      const staff = await t.createStaff();
      const id = await createRule(
        ruleOf(typeId, {
          ruleType: 'Delay',
          delayInterval: 300,
          resend: true,
          resendInterval: 600,
          emailNotice: true,
          severity: 'critical',
          clearMode: 'items',
          clearItems: [{ ...batteryBelow('30'), conditionType: 'Ge' }],
          recipients: [
            { kind: 'role', id: roleId },
            { kind: 'department', id: deptId },
            { kind: 'staff', id: staff.id },
          ],
        }),
      );
      const [rule] = await rulesOfType(typeId);
      expect(rule).toMatchObject({
        id,
        ruleType: 'Delay',
        delayInterval: 300,
        resend: true,
        resendInterval: 600,
        severity: 'critical',
        clearMode: 'items',
        items: [{ propCode: 'battery', propVal: '20', conditionType: 'Lt' }],
        clearItems: [{ propCode: 'battery', propVal: '30', conditionType: 'Ge' }],
      });
      expect(rule!.recipients.map((r) => r.name).sort()).toEqual([deptName, roleName, staff.name].sort());
    });

    it("stores an item's code as the catalogue spells it, so that reports match it (finding: DoorState never raised)", async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const door = {
        ...batteryBelow('20'),
        propCode: 'DoorState',
        propVal: 'open',
        valType: 'string' as const,
      };
      const id = await createRule(
        ruleOf(typeId, {
          items: [{ ...door, conditionType: 'Eq' }],
          clearMode: 'items',
          clearItems: [{ ...batteryBelow('30'), propCode: 'BATTERY', conditionType: 'Ge' }],
        }),
      );
      const [rule] = await rulesOfType(typeId);
      expect(rule).toMatchObject({
        id,
        items: [{ propCode: 'doorState', propVal: 'open' }],
        clearItems: [{ propCode: 'battery', propVal: '30' }],
      });
    });

    it('keeps no delay for an Instant rule, no resend interval without resend, no clear items in inverse mode', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      await createRule(
        ruleOf(typeId, {
          delayInterval: 300,
          resendInterval: 600,
          clearItems: [batteryBelow('30')],
        }),
      );
      const [rule] = await rulesOfType(typeId);
      expect(rule).toMatchObject({ delayInterval: null, resendInterval: null, clearItems: [] });
    });

    it('replaces items and recipients on update, and frees the name', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const form = ruleOf(typeId);
      const id = await createRule(form);
      const renamed = {
        ...form,
        id,
        name: uniqueName('Renamed'),
        items: [batteryBelow('10'), batteryBelow('15')],
      };
      expectOk(await post(api.warnRule.update, renamed));
      const [rule] = await rulesOfType(typeId);
      expect(rule!.items.map((i) => i.propVal)).toEqual(['10', '15']);
      // The old name is free again.
      await createRule({ ...form });
    });

    it('refuses a second rule of the same name on the type, whatever its case', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const form = ruleOf(typeId);
      await createRule(form);
      expectCode(
        await post(api.warnRule.save, { ...form, name: form.name.toUpperCase() }),
        ResultCode.NameTaken,
      );
      // Another type may use the name.
      await createRule({ ...form, deviceTypeId: await insertDeviceTypeRow(t.db) });
    });

    it("says which item names no property of the type's catalogue, or another value type", async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const response = await post(
        api.warnRule.save,
        ruleOf(typeId, {
          items: [
            batteryBelow('20'),
            { ...batteryBelow('1'), propCode: 'pressure', propOrigin: 'Extension' },
            { ...batteryBelow('true'), propCode: 'online', valType: 'boolean', conditionType: 'Eq' },
            {
              ...batteryBelow('1'),
              propCode: 'door',
              propOrigin: 'Extension',
              valType: 'string',
              conditionType: 'Eq',
            },
          ],
        }),
      );
      expectInvalid(response, ['items.1.propCode', 'items.3.propCode']);
      // A property every lock reports has its type whatever the catalogue: the form refuses another.
      const master = await post(
        api.warnRule.save,
        ruleOf(typeId, { items: [{ ...batteryBelow('1'), propCode: 'doorState', conditionType: 'Eq' }] }),
      );
      expectInvalid(master, ['items.0.valType']);
    });

    it("refuses a state value the lock never reports, saying which it takes, in the reader's language", async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const doorIs = (value: string) => ({
        ...batteryBelow(value),
        propCode: 'doorState',
        valType: 'string' as const,
        conditionType: 'Eq' as const,
      });
      const response = await postRaw(
        api.warnRule.save,
        ruleOf(typeId, { items: [doorIs('open'), doorIs('opne')], formatMsg: '{device} door' }),
        undefined,
        'en',
      );
      expectInvalid(response, ['items.1.propVal']);
      expect(fieldIssues(response)[0]?.message).toBe('Choose one of: open, closed');
      expectOk(await post(api.warnRule.save, ruleOf(typeId, { items: [doorIs('closed')] })));
    });

    it('refuses recipients that do not exist, and a device type that does not', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      expectInvalid(
        await post(api.warnRule.save, ruleOf(typeId, { recipients: [{ kind: 'role', id: 'no-such-role' }] })),
        ['recipients.0'],
      );
      expectInvalid(await post(api.warnRule.save, ruleOf('no-such-type')), ['deviceTypeId']);
    });

    it('refuses bad forms with translated messages', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const response = await postRaw(
        api.warnRule.save,
        {
          ...ruleOf(typeId, { ruleType: 'Delay', resend: true, resendInterval: 30 }),
          items: [batteryBelow('x')],
        },
        undefined,
        'en',
      );
      expectInvalid(response, ['delayInterval', 'resendInterval', 'items.0.propVal']);
      expect(fieldIssues(response).find((i) => i.path === 'resendInterval')?.message).toBe(
        'The resend interval is at least 60 seconds',
      );
    });

    it('deletes a rule, and answers 404 for one that is gone', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const id = await createRule(ruleOf(typeId));
      expectOk(await get(api.warnRule.del, { id }));
      expect(await rulesOfType(typeId)).toEqual([]);
      expectCode(await get(api.warnRule.del, { id }), ResultCode.NotFound);
      expectCode(await post(api.warnRule.update, { ...ruleOf(typeId), id }), ResultCode.NotFound);
    });

    it('searches by name and pages', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const marker = uniqueName('Marker');
      for (let i = 0; i < 3; i++) await createRule(ruleOf(typeId, { name: `${marker} ${i}` }));
      await createRule(ruleOf(typeId));
      const response = await get(api.warnRule.queryPage, { name: marker, pageSize: 2, sort: 'name' });
      expectOk(response);
      expect(response.body.data.total).toBe(3);
      expect(response.body.data.rows.map((r) => r.name)).toEqual([`${marker} 0`, `${marker} 1`]);
    });

    it("announces every change of a type's rules once committed", async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const heard: string[] = [];
      const stop = t.services.events.subscribe('warnRule.changed', 'test', ({ deviceTypeId }) => {
        heard.push(deviceTypeId);
      });
      try {
        const id = await createRule(ruleOf(typeId));
        expectOk(await post(api.warnRule.update, { ...ruleOf(typeId), id }));
        expectOk(await get(api.warnRule.del, { id }));
        // A refused save announces nothing.
        await post(api.warnRule.save, ruleOf('no-such-type'));
      } finally {
        stop();
      }
      expect(heard).toEqual([typeId, typeId, typeId]);
    });

    it('is read with warnRule.read and written with its own keys only', async () => {
      const typeId = await insertDeviceTypeRow(t.db);
      const reader = await t.createStaff({ permissions: [Permission.WarnRuleRead] });
      const token = await tokenOf(reader);
      expectOk(await get(api.warnRule.queryPage, {}, token));
      expectOk(await get(api.deviceProperty.queryByType, { deviceTypeId: typeId }, token));
      expectCode(await post(api.warnRule.save, ruleOf(typeId), token), ResultCode.Forbidden);
      expectCode(
        await post(
          api.deviceProperty.save,
          { deviceTypeId: typeId, code: 'x1', name: 'X', origin: 'Extension', valueType: 'number' },
          token,
        ),
        ResultCode.Forbidden,
      );
    });
  });
});
