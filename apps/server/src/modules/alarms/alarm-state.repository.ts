import type { LogicType, NoticeChannel, RuleItemForm } from '@uiot/contracts';
import type { ExtensionProps } from '@uiot/device-protocol';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { device, deviceType } from '../devices/devices.schema.ts';
import { deviceRuntime } from '../iot/iot.schema.ts';
import type { AlarmMachineState } from './alarm-machine.ts';
import { alarmTimer, deviceAlarm, warnRule, warnRuleItem } from './alarms.schema.ts';
import type { MasterProperties } from './known-properties.ts';
import { ruleItemOf } from './warn-rule.repository.ts';
import type { PropertySnapshot } from './warn-rule-evaluator.ts';

/** A warn rule as the runner evaluates it. */
export interface CompiledRule {
  id: string;
  deviceTypeId: string;
  name: string;
  formatMsg: string;
  ruleType: 'Instant' | 'Delay';
  logicType: LogicType;
  delayInterval: number | null;
  resend: boolean;
  resendInterval: number | null;
  severity: 'critical' | 'major' | 'minor' | 'warning';
  clearMode: 'inverse' | 'items';
  clearLogicType: LogicType;
  items: RuleItemForm[];
  clearItems: RuleItemForm[];
  /** The channels the rule notifies its recipients on. */
  notices: Record<NoticeChannel, boolean>;
}

/** The enabled rules of the types, with their items in order. */
export async function enabledRulesOf(db: Db, deviceTypeIds: readonly string[]): Promise<CompiledRule[]> {
  if (deviceTypeIds.length === 0) return [];
  const rules = await db
    .select()
    .from(warnRule)
    .where(and(inArray(warnRule.deviceTypeId, [...deviceTypeIds]), eq(warnRule.enabled, true)));
  if (rules.length === 0) return [];
  const items = await db
    .select()
    .from(warnRuleItem)
    .where(
      inArray(
        warnRuleItem.ruleId,
        rules.map((r) => r.id),
      ),
    )
    .orderBy(asc(warnRuleItem.ruleId), asc(warnRuleItem.sortIndex));
  return rules.map((r) => ({
    id: r.id,
    deviceTypeId: r.deviceTypeId,
    name: r.name,
    formatMsg: r.formatMsg,
    ruleType: r.ruleType,
    logicType: r.logicType,
    delayInterval: r.delayInterval,
    resend: r.resend,
    resendInterval: r.resendInterval,
    severity: r.severity,
    clearMode: r.clearMode,
    clearLogicType: r.clearLogicType,
    items: items.filter((i) => i.ruleId === r.id && i.role === 'raise').map(ruleItemOf),
    clearItems: items.filter((i) => i.ruleId === r.id && i.role === 'clear').map(ruleItemOf),
    notices: { email: r.emailNotice, sms: r.smsNotice, push: r.msgNotice },
  }));
}

/** The device types that have an enabled warn rule (reports of other devices are not looked at). */
export async function typesWithEnabledRules(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ deviceTypeId: warnRule.deviceTypeId })
    .from(warnRule)
    .where(eq(warnRule.enabled, true));
  return rows.map((r) => r.deviceTypeId);
}

/** A device with what its rules read: its type, names for the message, and its runtime data. */
export interface DeviceSnapshot {
  deviceId: string;
  stationId: string;
  deviceTypeId: string;
  name: string;
  code: string | null;
  deviceTypeName: string;
  snapshot: PropertySnapshot;
}

/** The devices (of the given types only, when given) with their current runtime data. */
export async function deviceSnapshots(
  db: Db,
  deviceIds: readonly string[],
  ofTypes?: readonly string[],
): Promise<DeviceSnapshot[]> {
  if (deviceIds.length === 0 || ofTypes?.length === 0) return [];
  const rows = await db
    .select({
      deviceId: device.id,
      stationId: device.stationId,
      deviceTypeId: device.typeId,
      name: device.name,
      code: device.code,
      deviceTypeName: deviceType.name,
      lockState: deviceRuntime.lockState,
      doorState: deviceRuntime.doorState,
      battery: deviceRuntime.battery,
      rssi: deviceRuntime.rssi,
      runState: deviceRuntime.runState,
      online: deviceRuntime.online,
      props: deviceRuntime.props,
    })
    .from(device)
    .innerJoin(deviceType, eq(deviceType.id, device.typeId))
    .leftJoin(deviceRuntime, eq(deviceRuntime.deviceId, device.id))
    .where(
      and(inArray(device.id, [...deviceIds]), ofTypes ? inArray(device.typeId, [...ofTypes]) : undefined),
    );
  return rows.map((r) => {
    const master: MasterProperties = {};
    if (r.lockState === 'open' || r.lockState === 'closed') master.lockState = r.lockState;
    if (r.doorState === 'open' || r.doorState === 'closed') master.doorState = r.doorState;
    if (r.battery !== null) master.battery = r.battery;
    if (r.rssi !== null) master.rssi = r.rssi;
    if (r.runState) master.runState = r.runState as NonNullable<MasterProperties['runState']>;
    if (r.online !== null) master.online = r.online;
    return {
      deviceId: r.deviceId,
      stationId: r.stationId,
      deviceTypeId: r.deviceTypeId!,
      name: r.name,
      code: r.code,
      deviceTypeName: r.deviceTypeName,
      snapshot: { master, extension: (r.props ?? {}) as ExtensionProps },
    };
  });
}

export const pairKey = (ruleId: string, deviceId: string) => `${ruleId}|${deviceId}`;

/**
 * Where each rule stands on each device, from what is stored: an open alarm, else a delay waiting, else
 * idle (absent from the map). `lock` takes the rows FOR UPDATE, so that two writers on one pair take turns.
 */
export async function machineStates(
  db: Db,
  ruleIds: readonly string[],
  deviceIds: readonly string[],
  lock = false,
): Promise<Map<string, AlarmMachineState>> {
  const states = new Map<string, AlarmMachineState>();
  if (ruleIds.length === 0 || deviceIds.length === 0) return states;
  const timers = db
    .select()
    .from(alarmTimer)
    .where(
      and(
        inArray(alarmTimer.ruleId, [...ruleIds]),
        inArray(alarmTimer.deviceId, [...deviceIds]),
        eq(alarmTimer.kind, 'delay'),
      ),
    );
  for (const t of await (lock ? timers.for('update') : timers)) {
    states.set(pairKey(t.ruleId, t.deviceId), {
      kind: 'pending',
      since: (t.since ?? t.dueAt).getTime(),
      dueAt: t.dueAt.getTime(),
    });
  }
  const open = db
    .select({
      id: deviceAlarm.id,
      ruleId: deviceAlarm.ruleId,
      deviceId: deviceAlarm.deviceId,
      warnTime: deviceAlarm.warnTime,
      lastSentAt: deviceAlarm.lastSentAt,
      ackTime: deviceAlarm.ackTime,
    })
    .from(deviceAlarm)
    .where(
      and(
        inArray(deviceAlarm.ruleId, [...ruleIds]),
        inArray(deviceAlarm.deviceId, [...deviceIds]),
        eq(deviceAlarm.state, 'Warn'),
      ),
    );
  for (const a of await (lock ? open.for('update') : open)) {
    states.set(pairKey(a.ruleId!, a.deviceId), {
      kind: 'open',
      alarmId: a.id,
      raisedAt: a.warnTime.getTime(),
      lastSentAt: (a.lastSentAt ?? a.warnTime).getTime(),
      acknowledged: a.ackTime !== null,
    });
  }
  return states;
}

/** A timer whose time has come, claimed for this transaction (others skip it). */
export interface DueTimer {
  ruleId: string;
  deviceId: string;
  kind: 'delay' | 'resend';
  dueAt: Date;
}

export async function claimDueTimers(db: Db, now: Date, limit: number): Promise<DueTimer[]> {
  return db
    .select({
      ruleId: alarmTimer.ruleId,
      deviceId: alarmTimer.deviceId,
      kind: alarmTimer.kind,
      dueAt: alarmTimer.dueAt,
    })
    .from(alarmTimer)
    .where(lte(alarmTimer.dueAt, now))
    .orderBy(asc(alarmTimer.dueAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function setTimer(
  db: Db,
  timer: {
    ruleId: string;
    deviceId: string;
    kind: 'delay' | 'resend';
    since?: Date;
    dueAt: Date;
    alarmId?: string;
  },
): Promise<void> {
  await db
    .insert(alarmTimer)
    .values({ ...timer, since: timer.since ?? null, alarmId: timer.alarmId ?? null })
    .onConflictDoUpdate({
      target: [alarmTimer.ruleId, alarmTimer.deviceId, alarmTimer.kind],
      set: {
        dueAt: timer.dueAt,
        since: timer.since ?? null,
        ...(timer.alarmId ? { alarmId: timer.alarmId } : {}),
      },
    });
}

export async function dropTimer(db: Db, ruleId: string, deviceId: string, kind: 'delay' | 'resend') {
  await db
    .delete(alarmTimer)
    .where(and(eq(alarmTimer.ruleId, ruleId), eq(alarmTimer.deviceId, deviceId), eq(alarmTimer.kind, kind)));
}
