// A registered lock reporting over MQTT and warn rules on its type: what browser tests of alarms start from.
import { api, type DeviceCredential, type RuleItemForm, type WarnRuleForm } from '@uiot/contracts';
import { encodeNativeReport } from '@uiot/device-protocol';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll } from 'vitest';
import { freePort } from '../../apps/server/src/lib/test-support.ts';
import { type AdminApi, adminApi, ledgerDevices } from './admin-api.ts';
import { useConsoleSuite } from './ui.ts';

/** The condition "the door is open". */
export const DOOR_OPEN = {
  propCode: 'doorState',
  propName: 'Door',
  propVal: 'open',
  valType: 'string',
  conditionType: 'Eq',
} as const;

export interface RegisteredLock extends DeviceCredential {
  deviceId: string;
  typeId: string;
}

/** A lock in a unit and a type of its own (`typeCode`), registered: its credential, id and type. */
export async function registeredLock(
  admin: AdminApi,
  typeCode: string,
  lock: { name: string; code: string },
): Promise<RegisteredLock> {
  const [deviceId] = await ledgerDevices(admin, typeCode, [lock]);
  const credential = await admin.call(api.device.regist, { query: { id: deviceId! } });
  const runtime = await admin.call(api.runtime.getByDeviceId, { query: { deviceId: deviceId! } });
  if (!credential || !runtime) throw new Error('the lock was not registered');
  return { ...credential, deviceId: deviceId!, typeId: runtime.typeId };
}

/** An Instant rule with one condition on a lock property (`Master`) of the type. */
export function saveLockRule(
  admin: AdminApi,
  typeId: string,
  rule: Pick<WarnRuleForm, 'name' | 'formatMsg' | 'severity'> &
    Partial<Pick<WarnRuleForm, 'msgNotice' | 'recipients'>>,
  item: Pick<RuleItemForm, 'propCode' | 'propName' | 'propVal' | 'valType' | 'conditionType'>,
) {
  return admin.call(api.warnRule.save, {
    body: {
      deviceTypeId: typeId,
      ruleType: 'Instant',
      logicType: 'AND',
      ...rule,
      items: [{ propOrigin: 'Master', ...item }],
    } as WarnRuleForm,
  });
}

/** The lock's MQTT connection on the devices' listener, reporting its door and battery. */
export class ReportingLock {
  private client: MqttClient | undefined;

  constructor(
    private readonly port: number,
    private readonly credential: DeviceCredential,
  ) {}

  async report(messageId: string, state: { door: 'open' | 'closed'; battery: number }): Promise<void> {
    const { username, secret, stationId } = this.credential;
    this.client ??= await connectAsync(`mqtt://127.0.0.1:${this.port}`, {
      protocolVersion: 4,
      clientId: `dev-${username}`,
      username,
      password: secret,
    });
    const payload = encodeNativeReport({
      messageId,
      event: 'doorChanged',
      lock: 'closed',
      door: state.door,
      battery: state.battery,
      rssi: -71,
    });
    await this.client.publishAsync(`dev/${stationId}/${username}/up`, payload, { qos: 1 });
  }

  async close(): Promise<void> {
    await this.client?.endAsync(true).catch(() => undefined);
  }
}

/**
 * A browser-test suite (`useConsoleSuite`) whose console takes locks on a port of its own (and `env` besides);
 * `lock` registers one and gives its connection, closed after the suite.
 */
export async function useLockSuite(env: Record<string, string> = {}) {
  const port = await freePort();
  const suite = useConsoleSuite({ env: { ...env, MQTT_PORT: String(port) } });
  const locks: ReportingLock[] = [];
  afterAll(async () => {
    await Promise.all(locks.map((lock) => lock.close()));
  });
  return {
    ...suite,
    /** A registered lock of a type of its own, the API as the administrator, and its connection. */
    async lock(typeCode: string, device: { name: string; code: string }) {
      const admin = await adminApi(suite.app.apiUrl);
      const registered = await registeredLock(admin, typeCode, device);
      const connection = new ReportingLock(port, registered);
      locks.push(connection);
      return { admin, registered, connection };
    },
  };
}
