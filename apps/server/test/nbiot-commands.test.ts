import { createHmac, randomBytes } from 'node:crypto';
import { ResultCode } from '@uiot/contracts';
import {
  decodeLockCommand,
  encodeLockReport,
  encodeNbCommandStatus,
  encodeNbReport,
  type NbPlatform,
} from '@uiot/device-protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NbCommandSettings } from '../src/infra/nbiot/index.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { lockSequenceOf } from '../src/modules/commands/command-send.ts';
import { type DeviceCommandRecord, deviceCommand } from '../src/modules/commands/commands.schema.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { device } from '../src/modules/devices/devices.schema.ts';
import type { RunningSystem } from '../src/system.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { busFixtures, NB_SECRETS, startBusSystem } from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import {
  type NbPlatformsStandIn,
  type PlatformRequestSeen,
  startNbPlatforms,
} from './support/nb-platforms.ts';

const AEP = {
  appKey: 'aep-app-key',
  appSecret: 'aep-app-secret-1',
  masterKey: 'aep-master-key-0123456789abcdef',
};
const UNICOM = { appId: 'unicom-app-id', secret: 'unicom-app-secret-1' };
const ONENET = {
  productId: '23104',
  accessKey: Buffer.from('onenet-access-key-of-product').toString('base64'),
};
const LEDGER_PRODUCT = '15012345';
const CALLBACK_PATH: Record<NbPlatform, string> = {
  ChinaTelecom: 'chinaTelecom',
  ChinaUnicom: 'chinaUnicom',
  ChinaMobile: 'chinaMobile',
};

const newImei = () => `86${randomBytes(7).readUIntBE(0, 6).toString().padStart(13, '0').slice(0, 13)}`;

function settingsOf(platforms: NbPlatformsStandIn): NbCommandSettings {
  return {
    ChinaTelecom: { baseUrl: `${platforms.url}/ctwing`, ...AEP, productId: undefined },
    ChinaUnicom: { baseUrl: `${platforms.url}/unicom`, ...UNICOM, callbackUrl: undefined },
    ChinaMobile: { baseUrl: `${platforms.url}/onenet`, ...ONENET },
  };
}

/** The lock command a platform was given, read back from the payload as the lock reads it. */
function lockCommandIn(hexOrBase64: string, encoding: 'hex' | 'base64') {
  const decoded = decodeLockCommand(Buffer.from(hexOrBase64, encoding));
  if (!decoded.ok) throw new Error(`not a lock command: ${decoded.detail}`);
  return decoded.value;
}

/**
 * Commands to NB-IoT locks through the carriers' command APIs, on the whole server: the platforms are a
 * local HTTP server answering as each documents; their status callbacks come back through the callback
 * routes and end the command.
 */
describe.each(databases)('NB-IoT commands through the carriers’ platforms ($kind)', ({ open }) => {
  let database: TestDatabase;
  let fixtures: { unitId: string; typeId: string };

  beforeAll(async () => {
    database = await open();
    fixtures = await busFixtures(database);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function commandOf(id: string): Promise<DeviceCommandRecord> {
    const [row] = await database.db.select().from(deviceCommand).where(eq(deviceCommand.id, id));
    return row!;
  }
  async function commandBecomes(id: string, ready: (c: DeviceCommandRecord) => boolean, what: string) {
    await waitFor(async () => ready(await commandOf(id)), 10_000, what);
    return commandOf(id);
  }

  /** A registered NB-IoT lock of the carrier in the ledger. */
  async function nbLock(system: RunningSystem, iotType: NbPlatform) {
    const imei = newImei();
    const id = await insertDeviceRow(database.db, { ...fixtures, imei });
    await database.db
      .update(device)
      .set({ iotType, netType: 'NbIot', productId: iotType === 'ChinaTelecom' ? LEDGER_PRODUCT : null })
      .where(eq(device.id, id));
    await system.services.devices.ledger.register(id, SERVER_OPERATOR);
    return { id, imei };
  }

  const issue = (
    system: RunningSystem,
    deviceId: string,
    cmdCode = 'open',
    params?: Record<string, number>,
  ) =>
    system.services.commands.issue({
      deviceId,
      cmdCode,
      name: `${cmdCode} (test)`,
      ...(params ? { params } : {}),
      expireSeconds: 600,
      maxRetransmit: 3,
    });

  async function callback(system: RunningSystem, platform: NbPlatform, body: unknown) {
    const response = await fetch(`${system.url}/api/nbiot/${CALLBACK_PATH[platform]}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-callback-token': NB_SECRETS[platform] },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  }
  const status = (
    system: RunningSystem,
    platform: NbPlatform,
    imei: string,
    commandId: string,
    word: string,
  ) =>
    callback(
      system,
      platform,
      encodeNbCommandStatus(platform, { imei, commandId, status: word, time: new Date() }),
    );
  const report = (system: RunningSystem, platform: NbPlatform, imei: string) =>
    callback(
      system,
      platform,
      encodeNbReport(platform, {
        imei,
        messageId: `m-${randomBytes(4).toString('hex')}`,
        time: new Date(),
        data: encodeLockReport({ event: 'heartbeat', lock: 'closed', door: 'closed', battery: 80 }),
      }),
    );

  /** The platform's status words until the command is final: pending at the platform, delivered, done. */
  async function followsStatuses(
    system: RunningSystem,
    platform: NbPlatform,
    imei: string,
    command: DeviceCommandRecord,
  ) {
    await status(system, platform, imei, command.receiveId!, 'DELIVERED');
    const delivered = await commandOf(command.id);
    expect(delivered.state).toBe('NB_Delivered');
    expect(delivered.finishedAt).toBeNull();
    await status(system, platform, imei, command.receiveId!, 'SUCCESSFUL');
    const done = await commandOf(command.id);
    expect(done.state).toBe('NB_Successful');
    expect(done.finishedAt).not.toBeNull();
    expect(done.nextCheckAt).toBeNull();
  }

  describe('with every platform configured', () => {
    let platforms: NbPlatformsStandIn;
    let system: RunningSystem & { removeDir(): void };
    const requestsTo = (path: string) => platforms.received.filter((r) => r.url.split('?')[0] === path);

    beforeAll(async () => {
      platforms = await startNbPlatforms();
      system = await startBusSystem(database, {
        commandRetransmitSeconds: 1,
        nbCommandPlatforms: settingsOf(platforms),
      });
    });
    afterAll(async () => {
      await system?.stop();
      system?.removeDir();
      await platforms?.close();
    });

    it('ChinaTelecom: a signed CreateCommand carries the setParam; AEP’s task id follows it to the end', async () => {
      const lock = await nbLock(system, 'ChinaTelecom');
      const before = platforms.received.length;
      const command = await issue(system, lock.id, 'setParam', { heartbeatSeconds: 300 });
      const [request] = platforms.received.slice(before) as [PlatformRequestSeen];
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/ctwing/aep_device_command/command');
      expect(request.headers).toMatchObject({
        application: AEP.appKey,
        version: '20190712225145',
        masterkey: AEP.masterKey,
      });
      const timestamp = String(request.headers.timestamp);
      expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(60_000);
      const signed = createHmac('sha1', AEP.appSecret)
        .update(
          `application:${AEP.appKey}\ntimestamp:${timestamp}\nMasterKey:${AEP.masterKey}\n${request.body}\n`,
        )
        .digest('base64');
      expect(request.headers.signature).toBe(signed);
      const body = JSON.parse(request.body);
      expect(body).toMatchObject({
        deviceId: `${LEDGER_PRODUCT}${lock.imei}`,
        productId: Number(LEDGER_PRODUCT),
        level: 1,
        content: { dataType: 2 },
      });
      expect(body.ttl).toBeGreaterThan(590);
      expect(body.ttl).toBeLessThanOrEqual(600);
      expect(lockCommandIn(body.content.payload, 'hex')).toEqual({
        seq: lockSequenceOf(command.id),
        cmd: 'setParam',
        params: { heartbeatSeconds: 300 },
      });
      // the platform holds it: pending there, named by AEP's command id, not sent again
      expect(command).toMatchObject({
        state: 'NB_Pending',
        transport: 'nbiot',
        platformDeviceId: `${LEDGER_PRODUCT}${lock.imei}`,
        attempts: 1,
        failureCode: null,
      });
      expect(command.receiveId).toMatch(/^\d+$/);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await commandOf(command.id)).attempts).toBe(1);
      await followsStatuses(system, 'ChinaTelecom', lock.imei, command);
    });

    it('ChinaUnicom: waits for the device id its callbacks name, then creates the command with the token', async () => {
      const lock = await nbLock(system, 'ChinaUnicom');
      const before = platforms.received.length;
      const command = await issue(system, lock.id);
      // no callback yet: OceanConnect's device id is unknown, the attempt is tried again
      expect(command).toMatchObject({ state: 'Waitting', failureCode: ResultCode.DeviceNotConnected });
      expect(platforms.received.length).toBe(before);
      await report(system, 'ChinaUnicom', lock.imei);
      const sent = await commandBecomes(command.id, (c) => c.receiveId !== null, 'the command sent');
      const login = requestsTo('/unicom/iocm/app/sec/v1.1.0/login').at(-1)!;
      expect(login.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(login.body))).toEqual({
        appId: UNICOM.appId,
        secret: UNICOM.secret,
      });
      const create = requestsTo('/unicom/iocm/app/cmd/v1.4.0/deviceCommands').at(-1)!;
      expect(create.url).toBe(`/unicom/iocm/app/cmd/v1.4.0/deviceCommands?appId=${UNICOM.appId}`);
      expect(create.headers.app_key).toBe(UNICOM.appId);
      expect(create.headers.authorization).toMatch(/^Bearer token-\d+$/);
      const body = JSON.parse(create.body);
      expect(body).toMatchObject({
        deviceId: `15012345${lock.imei}`,
        command: { serviceId: 'LockCommand', method: 'RAW' },
        maxRetransmit: 3,
      });
      expect(lockCommandIn(body.command.paras.rawData, 'base64')).toEqual({
        seq: lockSequenceOf(command.id),
        cmd: 'open',
        params: {},
      });
      expect(sent).toMatchObject({
        state: 'NB_Pending',
        transport: 'nbiot',
        platformDeviceId: `15012345${lock.imei}`,
        failureCode: null,
      });
      expect(sent.receiveId).toMatch(/^unicom-cmd-\d+$/);
      await followsStatuses(system, 'ChinaUnicom', lock.imei, sent);
    });

    it('ChinaMobile: a cached write with the product token; the uuid names the command in type 7 pushes', async () => {
      const lock = await nbLock(system, 'ChinaMobile');
      const before = platforms.received.length;
      const command = await issue(system, lock.id, 'close');
      const [request] = platforms.received.slice(before) as [PlatformRequestSeen];
      const url = new URL(request.url, platforms.url);
      expect(url.pathname).toBe('/onenet/nbiot/offline');
      expect(url.searchParams.get('imei')).toBe(lock.imei);
      expect(url.searchParams.get('obj_id')).toBe('19');
      expect(url.searchParams.get('obj_inst_id')).toBe('1');
      expect(url.searchParams.get('mode')).toBe('2');
      expect(url.searchParams.get('expired_time')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      const token = new URLSearchParams(String(request.headers.authorization));
      expect(token.get('res')).toBe(`products/${ONENET.productId}`);
      const sign = createHmac('sha1', Buffer.from(ONENET.accessKey, 'base64'))
        .update(`${token.get('et')}\nsha1\nproducts/${ONENET.productId}\n2018-10-31`)
        .digest('base64');
      expect(token.get('sign')).toBe(sign);
      const [write] = JSON.parse(request.body).data;
      expect(write).toMatchObject({ res_id: 0, type: 1 });
      expect(lockCommandIn(write.val, 'hex')).toEqual({
        seq: lockSequenceOf(command.id),
        cmd: 'close',
        params: {},
      });
      expect(command).toMatchObject({ state: 'NB_Pending', transport: 'nbiot', platformDeviceId: lock.imei });
      expect(command.receiveId).toMatch(/^onenet-uuid-\d+$/);
      await followsStatuses(system, 'ChinaMobile', lock.imei, command);
    });

    it('counts an error answer as a failed attempt and sends again; nothing secret is kept with it', async () => {
      const lock = await nbLock(system, 'ChinaTelecom');
      platforms.replyNext('/ctwing/', { status: 500, body: { code: 500, msg: 'Internal Error' } });
      const command = await issue(system, lock.id);
      expect(command).toMatchObject({
        state: 'Waitting',
        failureCode: ResultCode.ServiceUnavailable,
        receiveId: null,
      });
      expect(command.failureParams).toEqual({ network: 'ChinaTelecom', detail: 'HTTP 500 code 500' });
      expect(JSON.stringify(command)).not.toContain(AEP.appSecret);
      const sent = await commandBecomes(command.id, (c) => c.state === 'NB_Pending', 'sent again');
      expect(sent).toMatchObject({ attempts: 2, failureCode: null });
    });

    it('logs in again when the token is refused, and gives up on a device the platform does not know', async () => {
      const lock = await nbLock(system, 'ChinaUnicom');
      await report(system, 'ChinaUnicom', lock.imei);
      const logins = requestsTo('/unicom/iocm/app/sec/v1.1.0/login').length;
      platforms.replyNext('/unicom/iocm/app/cmd/', { status: 401, body: { error_code: '1010005' } });
      const renewed = await issue(system, lock.id);
      expect(renewed.state).toBe('NB_Pending');
      expect(requestsTo('/unicom/iocm/app/sec/v1.1.0/login').length).toBe(logins + 1);

      platforms.replyNext('/unicom/iocm/app/cmd/', {
        status: 400,
        body: { error_code: '100403', error_desc: 'The device is not existed.' },
      });
      const unknown = await issue(system, lock.id);
      expect(unknown).toMatchObject({ state: 'Failure', failureCode: ResultCode.DeviceNotRegistered });
      expect(unknown.finishedAt).not.toBeNull();
    });
  });

  describe('with no platform configured', () => {
    let platforms: NbPlatformsStandIn;
    let system: RunningSystem & { removeDir(): void };

    beforeAll(async () => {
      platforms = await startNbPlatforms();
      system = await startBusSystem(database);
    });
    afterAll(async () => {
      await system?.stop();
      system?.removeDir();
      await platforms?.close();
    });

    it.each<NbPlatform>(['ChinaTelecom', 'ChinaUnicom', 'ChinaMobile'])(
      '%s: refuses the command, naming the network, as before',
      async (platform) => {
        const lock = await nbLock(system, platform);
        const command = await issue(system, lock.id);
        expect(command).toMatchObject({
          state: 'Failure',
          failureCode: ResultCode.CommandUnsupported,
          failureParams: { network: platform },
        });
        expect(platforms.received).toEqual([]);
      },
    );
  });
});
