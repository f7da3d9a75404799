import { api, ResultCode } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustValue, lockCode } from '../src/modules/devices/devices.schema.ts';
import { openTestApp, type TestApp } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, orgHelpers } from './support/org.ts';

let rfidCounter = 0xa0_0000_0000;
/** A fresh RFID of 12 hex digits, lower-cased as a card reader may give it. */
function freshRfid(): string {
  rfidCounter += 1;
  return rfidCounter.toString(16).padStart(12, '0');
}

describe.each(databases)('lock codes and correction values ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, postRaw } = orgHelpers(() => t);
  let unitId: string;
  let typeId: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    unitId = await insertUnitRow(t.db);
    typeId = await insertDeviceTypeRow(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const newDevice = () => insertDeviceRow(t.db, { unitId, typeId });
  const lockCodes = async (deviceId: string) => {
    const response = await get(api.lockCode.queryByDevice, { deviceId });
    expectOk(response);
    return response.body.data;
  };
  const adjustValues = async (deviceId: string) => {
    const response = await get(api.adjustValue.queryByDevice, { deviceId });
    expectOk(response);
    return response.body.data;
  };

  describe('lock codes', () => {
    it('are saved with the RFID upper-cased and listed oldest first', async () => {
      const deviceId = await newDevice();
      const rfid = freshRfid();
      const first = await post(api.lockCode.save, {
        deviceId,
        rfidCode: rfid,
        dnbs: 'DN-1',
        rfidType: 'card',
        blueAddr: 'aa-bb-cc-dd-ee-ff',
        effect: false,
        effectiveTime: '2026-01-01T08:00:00+08:00',
        expirationTime: '2026-12-31T00:00:00Z',
        remark: 'Spare card',
      });
      expectOk(first);
      const second = await post(api.lockCode.save, { deviceId, rfidCode: freshRfid() });
      expectOk(second);

      const rows = await lockCodes(deviceId);
      expect(rows.map((r) => r.id)).toEqual([first.body.data.id, second.body.data.id]);
      expect(rows[0]).toMatchObject({
        deviceId,
        rfidCode: rfid.toUpperCase(),
        dnbs: 'DN-1',
        rfidType: 'card',
        blueAddr: 'AA:BB:CC:DD:EE:FF',
        effect: false,
        effectiveTime: '2026-01-01T00:00:00.000Z',
        expirationTime: '2026-12-31T00:00:00.000Z',
        remark: 'Spare card',
      });
      expect(rows[1]).toMatchObject({ effect: true, effectiveTime: null, blueAddr: null, remark: null });

      expectOk(
        await post(api.lockCode.update, {
          id: second.body.data.id,
          deviceId,
          rfidCode: rows[1]!.rfidCode,
          remark: 'Changed',
        }),
      );
      expect((await lockCodes(deviceId))[1]!.remark).toBe('Changed');
      expectOk(await get(api.lockCode.del, { id: first.body.data.id }));
      expect((await lockCodes(deviceId)).map((r) => r.id)).toEqual([second.body.data.id]);
      expectCode(await get(api.lockCode.del, { id: first.body.data.id }), ResultCode.NotFound);
    });

    it('keep the RFID unique over the ledger, whatever its case (1103)', async () => {
      const rfid = freshRfid();
      expectOk(await post(api.lockCode.save, { deviceId: await newDevice(), rfidCode: rfid }));
      const taken = await post(
        api.lockCode.save,
        { deviceId: await newDevice(), rfidCode: rfid.toUpperCase() },
        undefined,
        'en',
      );
      expectCode(taken, ResultCode.CodeTaken);
      expect(taken.body.message).toBe(`"${rfid.toUpperCase()}" is already in use`);

      const deviceId = await newDevice();
      const own = await post(api.lockCode.save, { deviceId, rfidCode: freshRfid() });
      expectCode(
        await post(api.lockCode.update, { id: own.body.data.id, deviceId, rfidCode: rfid }),
        ResultCode.CodeTaken,
      );

      const contested = freshRfid();
      const answers = await Promise.all([
        post(api.lockCode.save, { deviceId, rfidCode: contested }),
        post(api.lockCode.save, { deviceId, rfidCode: contested }),
      ]);
      expect(answers.map((r) => r.body.code).sort((a, b) => a - b)).toEqual([
        ResultCode.Ok,
        ResultCode.CodeTaken,
      ]);
    });

    it('check formats and that the end comes after the start', async () => {
      const deviceId = await newDevice();
      expectInvalid(await post(api.lockCode.save, { deviceId, rfidCode: '' }), ['rfidCode']);
      expectInvalid(await post(api.lockCode.save, { deviceId, rfidCode: 'ABCDEF01234' }), ['rfidCode']);
      expectInvalid(await post(api.lockCode.save, { deviceId, rfidCode: 'ABCDEF01234G' }), ['rfidCode']);
      expectInvalid(await post(api.lockCode.save, { deviceId, rfidCode: freshRfid(), blueAddr: 'AA:BB' }), [
        'blueAddr',
      ]);
      const backwards = await post(
        api.lockCode.save,
        {
          deviceId,
          rfidCode: freshRfid(),
          effectiveTime: '2026-05-01T00:00:00Z',
          expirationTime: '2026-05-01T00:00:00Z',
        },
        undefined,
        'en',
      );
      expectInvalid(backwards, ['expirationTime']);
      expect(backwards.body.data).toEqual([
        { path: 'expirationTime', message: 'The end must be later than the start' },
      ]);
      expect(await lockCodes(deviceId)).toEqual([]);
    });

    it('belong to an existing main device', async () => {
      expectCode(
        await post(api.lockCode.save, { deviceId: 'no-such-device', rfidCode: freshRfid() }),
        ResultCode.NotFound,
      );
      expectCode(await get(api.lockCode.queryByDevice, { deviceId: 'no-such-device' }), ResultCode.NotFound);
      const main = await newDevice();
      const attached = await insertDeviceRow(t.db, { unitId, typeId, mainDeviceId: main });
      expectCode(
        await post(api.lockCode.save, { deviceId: attached, rfidCode: freshRfid() }),
        ResultCode.NotAMainDevice,
      );
      expectCode(
        await post(api.lockCode.update, { id: 'no-such-code', deviceId: main, rfidCode: freshRfid() }),
        ResultCode.NotFound,
      );
    });

    it('are refused while SupportRfid is off (1104)', async () => {
      const deviceId = await newDevice();
      await t.setParam('SupportRfid', 'false');
      try {
        const off = await post(api.lockCode.save, { deviceId, rfidCode: freshRfid() }, undefined, 'en');
        expectCode(off, ResultCode.FeatureDisabled);
        expect(off.body.message).toBe('This function is switched off (parameter SupportRfid)');
        expectCode(await get(api.lockCode.queryByDevice, { deviceId }), ResultCode.FeatureDisabled);
      } finally {
        await t.setParam('SupportRfid', 'true');
      }
      expect(await lockCodes(deviceId)).toEqual([]);
    });
  });

  describe('correction values', () => {
    it('are saved, listed oldest first, updated and deleted', async () => {
      const deviceId = await newDevice();
      const first = await post(api.adjustValue.save, {
        deviceId,
        name: 'Offset',
        value: '-1.25',
        type: 'angle',
      });
      expectOk(first);
      expectOk(await post(api.adjustValue.save, { deviceId, name: 'Gain', value: 3 }));
      const rows = await adjustValues(deviceId);
      expect(rows.map((r) => [r.name, r.value, r.type])).toEqual([
        ['Offset', -1.25, 'angle'],
        ['Gain', 3, null],
      ]);
      expectOk(
        await post(api.adjustValue.update, { id: first.body.data.id, deviceId, name: 'Offset', value: 0.5 }),
      );
      expect((await adjustValues(deviceId))[0]).toMatchObject({ value: 0.5, type: null });
      expectOk(await get(api.adjustValue.del, { id: first.body.data.id }));
      expect((await adjustValues(deviceId)).map((r) => r.name)).toEqual(['Gain']);
      expectCode(await get(api.adjustValue.del, { id: first.body.data.id }), ResultCode.NotFound);
    });

    it('take a number as the value and belong to an existing device', async () => {
      const deviceId = await newDevice();
      for (const value of ['abc', '', null, '1,5']) {
        expectInvalid(await postRaw(api.adjustValue.save, { deviceId, name: 'Offset', value }), ['value']);
      }
      expectInvalid(await post(api.adjustValue.save, { deviceId, name: '', value: 1 }), ['name']);
      expectCode(
        await post(api.adjustValue.save, { deviceId: 'no-such-device', name: 'Offset', value: 1 }),
        ResultCode.NotFound,
      );
      expectCode(
        await post(api.adjustValue.update, { id: 'no-such-value', deviceId, name: 'Offset', value: 1 }),
        ResultCode.NotFound,
      );
      expect(await adjustValues(deviceId)).toEqual([]);
    });

    it('are refused while SupportAdjustValue is off (1104)', async () => {
      const deviceId = await newDevice();
      await t.setParam('SupportAdjustValue', 'false');
      try {
        expectCode(
          await post(api.adjustValue.save, { deviceId, name: 'Offset', value: 1 }),
          ResultCode.FeatureDisabled,
        );
        expectCode(await get(api.adjustValue.queryByDevice, { deviceId }), ResultCode.FeatureDisabled);
      } finally {
        await t.setParam('SupportAdjustValue', 'true');
      }
    });
  });

  it('go with their device when it is deleted', async () => {
    const deviceId = await newDevice();
    expectOk(await post(api.lockCode.save, { deviceId, rfidCode: freshRfid() }));
    expectOk(await post(api.adjustValue.save, { deviceId, name: 'Offset', value: 1 }));
    expectOk(await get(api.device.del, { id: deviceId }));
    expect(await t.db.select().from(lockCode).where(eq(lockCode.deviceId, deviceId))).toEqual([]);
    expect(await t.db.select().from(adjustValue).where(eq(adjustValue.deviceId, deviceId))).toEqual([]);
  });
});
