import { type BuiltInAlarm, builtInAlarmKey, ResultCode, renderAlarmMessage } from '@uiot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import { alarmChanges } from './alarm.repository.ts';
import {
  type AlarmAction,
  type AlarmInput,
  type AlarmMachineRule,
  type AlarmMachineState,
  IDLE,
  next,
  RESET_STATE_OF,
} from './alarm-machine.ts';
import type { AlarmNotifier } from './alarm-notifier.ts';
import {
  type CompiledRule,
  claimDueTimers,
  type DeviceSnapshot,
  deviceSnapshots,
  dropTimer,
  enabledRulesOf,
  machineStates,
  pairKey,
  setTimer,
  typesWithEnabledRules,
} from './alarm-state.repository.ts';
import { deviceAlarm } from './alarms.schema.ts';
import { consoleTime } from './notice-plan.ts';
import './events.ts';
import { asReported, evaluateItems, type ReportedValues } from './warn-rule-evaluator.ts';

/** Most due timers one pass of the timer job acts on (the next pass takes the rest). */
const TIMERS_PER_PASS = 200;

/**
 * A device whose runtime data a committed batch changed, when its newest message arrived, and what the
 * batch's messages said (absent for a change no report brought: a run state the server worked out, going
 * offline).
 */
export interface StoredReport {
  deviceId: string;
  at: number;
  reported?: ReportedValues;
}

/** Who acts on an alarm by hand. */
export interface AlarmActor {
  staffId: string;
  staffName: string;
}

const machineRuleOf = (rule: CompiledRule): AlarmMachineRule => ({ ...rule, canReset: true });

/**
 * Runs the warn rules (docs/alarms.md): each committed batch of reports is evaluated against the enabled
 * rules of the devices' types, Delay and resend timers are kept in the database and fired by `fireDue`
 * (rows claimed with FOR UPDATE SKIP LOCKED, so one instance acts on each, once), and staff reset and
 * acknowledge alarms. The lifecycle of each rule on each device is the pure machine of alarm-machine.ts;
 * this class reads its state from the stored alarm and timers and carries out the actions it returns, in
 * one transaction per batch. Rules are cached per device type and reloaded on `warnRule.changed`.
 */
export class AlarmRunner {
  private readonly rules = new Map<string, Promise<CompiledRule[]>>();
  /** The device types with an enabled rule, read once and again after a rule changed. */
  private ruleTypes: Promise<string[]> | null = null;
  /** Reports handed in and not yet being evaluated, in the order they were committed. */
  private waiting: StoredReport[] = [];
  /** The evaluation under way, which goes on with the reports waiting until there are none. */
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly notifier: AlarmNotifier,
    private readonly logger: ModuleLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets the rules of a type (all types without one): the next batch reads them again. */
  forgetRules(deviceTypeId?: string): void {
    if (deviceTypeId) this.rules.delete(deviceTypeId);
    else this.rules.clear();
    this.ruleTypes = null;
  }

  /**
   * Evaluates a committed batch. Batches handed in while an evaluation runs are evaluated together next,
   * each device's reports in the order they came, so that a runner behind the reports catches up instead of
   * falling further behind. Failures are logged; the next batches still run.
   */
  reportsStored(reports: readonly StoredReport[]): Promise<void> {
    if (reports.length === 0) return this.settled();
    this.waiting.push(...reports);
    this.running ??= this.drain();
    return this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const reports = this.waiting;
        this.waiting = [];
        await this.evaluate(reports).catch((error: unknown) =>
          this.logger.error(
            { error: errorMessage(error) },
            'warn rules not evaluated for a batch of reports',
          ),
        );
      }
    } finally {
      this.running = null;
    }
  }

  /**
   * Evaluates devices whose runtime data changed without a report (a run state the server worked out,
   * going offline), as of now.
   */
  devicesChanged(deviceIds: readonly string[]): Promise<void> {
    const at = this.now();
    return this.reportsStored(deviceIds.map((deviceId) => ({ deviceId, at })));
  }

  /** Resolves once every batch handed in so far has been evaluated. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Fires the Delay and resend timers whose time has come; returns how many it took. */
  async fireDue(): Promise<number> {
    const now = this.now();
    return this.unit(async (tx, touched) => {
      const due = await claimDueTimers(tx, new Date(now), TIMERS_PER_PASS);
      if (due.length === 0) return 0;
      const devices = await deviceSnapshots(tx, [...new Set(due.map((t) => t.deviceId))]);
      const rules = await this.rulesOf(tx, devices);
      const states = await machineStates(
        tx,
        due.map((t) => t.ruleId),
        due.map((t) => t.deviceId),
        true,
      );
      for (const timer of due) {
        const rule = rules.get(timer.ruleId);
        const target = devices.find((d) => d.deviceId === timer.deviceId);
        if (!rule || !target) {
          // The rule was disabled or deleted, or the device changed type: its timer has nothing to do.
          await dropTimer(tx, timer.ruleId, timer.deviceId, timer.kind);
          continue;
        }
        const state = states.get(pairKey(rule.id, target.deviceId)) ?? IDLE;
        const input: AlarmInput = { kind: timer.kind === 'delay' ? 'delayDue' : 'resendDue', at: now };
        const { actions } = next(state, input, machineRuleOf(rule));
        // The timer has fired: it goes, and the actions set the next one (a reminder) where there is one.
        await dropTimer(tx, rule.id, target.deviceId, timer.kind);
        await this.apply(tx, touched, rule, target, state, actions);
      }
      return due.length;
    });
  }

  /** Staff reset an open alarm by hand (spec §4: state Reset, with the reset time and staff). */
  reset(alarmId: string, actor: AlarmActor): Promise<void> {
    return this.act(alarmId, actor, (at) => ({ kind: 'reset', at, staffId: actor.staffId }));
  }

  /** Staff acknowledge an open alarm: it stays open, its reminders stop. */
  acknowledge(alarmId: string, actor: AlarmActor): Promise<void> {
    return this.act(alarmId, actor, (at) => ({ kind: 'acknowledge', at, staffId: actor.staffId }));
  }

  private async act(alarmId: string, actor: AlarmActor, inputAt: (at: number) => AlarmInput): Promise<void> {
    const at = this.now();
    await this.unit(async (tx, touched) => {
      const [alarm] = await tx.select().from(deviceAlarm).where(eq(deviceAlarm.id, alarmId)).for('update');
      if (!alarm) throw new AppError(ResultCode.NotFound);
      if (alarm.state !== 'Warn') throw new AppError(ResultCode.AlarmClosed);
      if (!alarm.canReset && inputAt(at).kind === 'reset') throw new AppError(ResultCode.AlarmNotResettable);
      const state: AlarmMachineState = {
        kind: 'open',
        alarmId: alarm.id,
        raisedAt: alarm.warnTime.getTime(),
        lastSentAt: (alarm.lastSentAt ?? alarm.warnTime).getTime(),
        acknowledged: alarm.ackTime !== null,
      };
      const [target] = await deviceSnapshots(tx, [alarm.deviceId]);
      const rule = alarm.ruleId
        ? (await this.rulesOf(tx, target ? [target] : [])).get(alarm.ruleId)
        : undefined;
      if (!rule || !target) {
        // Its rule is gone or disabled: the record is closed or acknowledged as asked, no timer to keep.
        await this.closeOrAcknowledge(tx, touched, alarm.id, inputAt(at), actor);
        return;
      }
      const { actions } = next(state, inputAt(at), {
        ...machineRuleOf(rule),
        canReset: alarm.canReset,
      });
      await this.apply(tx, touched, rule, target, state, actions, actor);
    });
  }

  private async closeOrAcknowledge(
    tx: Db,
    touched: Set<string>,
    alarmId: string,
    input: AlarmInput,
    actor: AlarmActor,
  ) {
    touched.add(alarmId);
    if (input.kind === 'reset') {
      await this.closeAlarm(
        tx,
        alarmId,
        { kind: 'manualReset', at: input.at, staffId: actor.staffId },
        actor,
      );
    } else if (input.kind === 'acknowledge') {
      await this.acknowledgeAlarm(tx, alarmId, input.at, actor);
    }
  }

  /**
   * One transaction of the runner: the alarms `work` touches are announced as they stand at its end
   * (`alarm.changed`, after commit).
   */
  /**
   * Raises a built-in alarm (no warn rule: BUILT_IN_ALARMS) on a device at `at`: each occurrence is its own
   * alarm, reset by staff. Nobody is notified by mail or SMS (no rule names recipients); the console's alarm
   * topic, bell and board show it.
   */
  raiseBuiltIn(
    alarm: BuiltInAlarm,
    target: { deviceId: string; stationId: string },
    at: number,
  ): Promise<void> {
    return this.unit(async (tx, touched) => {
      const key = builtInAlarmKey(alarm);
      const [row] = await tx
        .insert(deviceAlarm)
        .values({
          stationId: target.stationId,
          ruleId: null,
          ruleName: key,
          deviceId: target.deviceId,
          content: key,
          severity: 'critical',
          canReset: true,
          warnTime: new Date(at),
          lastSentAt: new Date(at),
          sendCount: 0,
        })
        .returning({ id: deviceAlarm.id });
      if (row) touched.add(row.id);
    });
  }

  private unit<T>(work: (tx: Db, touched: Set<string>) => Promise<T>): Promise<T> {
    return this.events.transaction(this.db, async (tx) => {
      const touched = new Set<string>();
      const result = await work(tx, touched);
      const alarms = await alarmChanges(tx, [...touched]);
      if (alarms.length > 0) this.events.publish('alarm.changed', { alarms });
      return result;
    });
  }

  private async evaluate(reports: readonly StoredReport[]): Promise<void> {
    if (!this.ruleTypes) {
      const reading = typesWithEnabledRules(this.db);
      reading.catch(() => {
        if (this.ruleTypes === reading) this.ruleTypes = null;
      });
      this.ruleTypes = reading;
    }
    const types = await this.ruleTypes;
    if (types.length === 0) return;
    const byDevice = new Map<string, StoredReport[]>();
    for (const report of reports) {
      const list = byDevice.get(report.deviceId);
      if (list) list.push(report);
      else byDevice.set(report.deviceId, [report]);
    }
    // Only devices of a type with rules are read, and a transaction is opened only when there are some.
    const devices = await deviceSnapshots(this.db, [...byDevice.keys()], types);
    if (devices.length === 0) return;
    const rules = await this.rulesOf(this.db, devices);
    if (rules.size === 0) return;
    // A first look without locks: most reports change nothing (no condition holds and no alarm is open, or
    // the open alarm still holds), and those need no transaction at all.
    const seen = await machineStates(
      this.db,
      [...rules.keys()],
      devices.map((d) => d.deviceId),
    );
    const acting: Array<{ rule: CompiledRule; target: DeviceSnapshot; inputs: AlarmInput[] }> = [];
    for (const target of devices) {
      const ofRules = [...rules.values()].filter((rule) => rule.deviceTypeId === target.deviceTypeId);
      if (ofRules.length === 0) continue;
      // Each report is evaluated with what it said, whatever was stored after it (warn-rule-evaluator.ts).
      const snapshots = byDevice.get(target.deviceId)!.map((report) => ({
        at: report.at,
        snapshot: report.reported ? asReported(target.snapshot, report.reported) : target.snapshot,
      }));
      for (const rule of ofRules) {
        let state = seen.get(pairKey(rule.id, target.deviceId)) ?? IDLE;
        const inputs: AlarmInput[] = [];
        for (const { at, snapshot } of snapshots) {
          const raise = evaluateItems(rule.items, rule.logicType, snapshot);
          // Idle and not raising: the machine does nothing (alarm-machine.ts), by far the most common case.
          if (state.kind === 'idle' && raise !== 'holds') continue;
          const input: AlarmInput = {
            kind: 'evaluated',
            at,
            raise,
            ...(rule.clearMode === 'items'
              ? { clear: evaluateItems(rule.clearItems, rule.clearLogicType, snapshot) }
              : {}),
          };
          const step = next(state, input, machineRuleOf(rule));
          if (step.actions.length > 0 || inputs.length > 0) inputs.push(input);
          state = step.state;
        }
        if (inputs.length > 0) acting.push({ rule, target, inputs });
      }
    }
    if (acting.length === 0) return;
    // The pairs that act are decided again on their locked state, which another instance may have moved.
    await this.unit(async (tx, touched) => {
      const states = await machineStates(
        tx,
        [...new Set(acting.map((a) => a.rule.id))],
        [...new Set(acting.map((a) => a.target.deviceId))],
        true,
      );
      for (const { rule, target, inputs } of acting) {
        let state = states.get(pairKey(rule.id, target.deviceId)) ?? IDLE;
        for (const input of inputs) {
          const step = next(state, input, machineRuleOf(rule));
          const alarmId = await this.apply(tx, touched, rule, target, state, step.actions);
          state = step.state.kind === 'open' && !step.state.alarmId ? { ...step.state, alarmId } : step.state;
        }
      }
    });
  }

  /** The enabled rules of the devices' types, by id (cached per type). */
  private async rulesOf(db: Db, devices: readonly DeviceSnapshot[]): Promise<Map<string, CompiledRule>> {
    const types = [...new Set(devices.map((d) => d.deviceTypeId))];
    const missing = types.filter((type) => !this.rules.has(type));
    if (missing.length > 0) {
      const loading = enabledRulesOf(db, missing);
      for (const type of missing) {
        const ofType = loading.then((rules) => rules.filter((r) => r.deviceTypeId === type));
        // A failed read is not kept: the next batch tries again.
        ofType.catch(() => this.rules.delete(type));
        this.rules.set(type, ofType);
      }
    }
    const byId = new Map<string, CompiledRule>();
    for (const type of types) for (const rule of await this.rules.get(type)!) byId.set(rule.id, rule);
    return byId;
  }

  /** Carries out the machine's actions for one rule on one device, in the caller's transaction. */
  private async apply(
    tx: Db,
    touched: Set<string>,
    rule: CompiledRule,
    target: DeviceSnapshot,
    state: AlarmMachineState,
    actions: readonly AlarmAction[],
    actor?: AlarmActor,
  ): Promise<string | undefined> {
    let alarmId = state.kind === 'open' ? state.alarmId : undefined;
    if (alarmId && actions.length > 0) touched.add(alarmId);
    for (const action of actions) {
      switch (action.kind) {
        case 'raise':
          alarmId = await this.raise(tx, rule, target, action.at);
          if (alarmId) touched.add(alarmId);
          break;
        case 'scheduleDelay':
          await setTimer(tx, {
            ruleId: rule.id,
            deviceId: target.deviceId,
            kind: 'delay',
            since: new Date(action.dueAt - (rule.delayInterval ?? 0) * 1000),
            dueAt: new Date(action.dueAt),
          });
          break;
        case 'cancelDelay':
          await dropTimer(tx, rule.id, target.deviceId, 'delay');
          break;
        case 'scheduleResend':
          await setTimer(tx, {
            ruleId: rule.id,
            deviceId: target.deviceId,
            kind: 'resend',
            dueAt: new Date(action.dueAt),
            ...(alarmId ? { alarmId } : {}),
          });
          break;
        case 'cancelResend':
          await dropTimer(tx, rule.id, target.deviceId, 'resend');
          break;
        case 'resend':
          if (alarmId) await this.resent(tx, rule, target, alarmId, action.at);
          break;
        case 'autoReset':
        case 'manualReset':
          if (alarmId) await this.closeAlarm(tx, alarmId, action, actor);
          break;
        case 'acknowledge':
          if (alarmId && actor) await this.acknowledgeAlarm(tx, alarmId, action.at, actor);
          break;
      }
    }
    return alarmId;
  }

  private async raise(
    tx: Db,
    rule: CompiledRule,
    target: DeviceSnapshot,
    at: number,
  ): Promise<string | undefined> {
    const props: Record<string, string> = {};
    for (const item of rule.items) {
      const value =
        item.propOrigin === 'Master'
          ? target.snapshot.master[item.propCode as keyof typeof target.snapshot.master]
          : target.snapshot.extension[item.propCode];
      if (value !== undefined) props[item.propCode] = String(value);
    }
    const content = renderAlarmMessage(rule.formatMsg, {
      device: target.name,
      deviceCode: target.code ?? '',
      deviceType: target.deviceTypeName,
      station: target.stationId,
      rule: rule.name,
      // As the console shows times (UTC+8), like the alarm's other columns and its export.
      time: consoleTime(new Date(at)),
      props,
    });
    const [first] = rule.items;
    const [row] = await tx
      .insert(deviceAlarm)
      .values({
        stationId: target.stationId,
        ruleId: rule.id,
        ruleName: rule.name,
        deviceId: target.deviceId,
        content,
        severity: rule.severity,
        propOrigin: first?.propOrigin ?? null,
        propName: rule.items.map((i) => i.propName).join(', ') || null,
        warnTime: new Date(at),
        lastSentAt: new Date(at),
        // Counted as its notifications are delivered (AlarmNotifier), not as they are written.
        sendCount: 0,
      })
      // Another instance raised it from a concurrent batch: one open alarm per rule and device.
      .onConflictDoNothing()
      .returning();
    if (!row) return undefined;
    await this.notifier.enqueue(tx, rule, { ...row, deviceName: target.name }, 'raised', at);
    return row.id;
  }

  private async resent(
    tx: Db,
    rule: CompiledRule,
    target: DeviceSnapshot,
    alarmId: string,
    at: number,
  ): Promise<void> {
    const [row] = await tx
      .update(deviceAlarm)
      .set({ lastSentAt: new Date(at) })
      .where(eq(deviceAlarm.id, alarmId))
      .returning();
    if (row) await this.notifier.enqueue(tx, rule, { ...row, deviceName: target.name }, 'reminder', at);
  }

  private async closeAlarm(
    tx: Db,
    alarmId: string,
    action: Extract<AlarmAction, { kind: 'autoReset' | 'manualReset' }>,
    actor?: AlarmActor,
  ): Promise<void> {
    await tx
      .update(deviceAlarm)
      .set({
        state: RESET_STATE_OF[action.kind],
        resetTime: new Date(action.at),
        ...(action.kind === 'manualReset' && actor
          ? { resetStaffId: actor.staffId, resetStaffName: actor.staffName }
          : {}),
      })
      .where(and(eq(deviceAlarm.id, alarmId), eq(deviceAlarm.state, 'Warn')));
  }

  private async acknowledgeAlarm(tx: Db, alarmId: string, at: number, actor: AlarmActor): Promise<void> {
    await tx
      .update(deviceAlarm)
      .set({ ackTime: new Date(at), ackStaffId: actor.staffId, ackStaffName: actor.staffName })
      .where(and(eq(deviceAlarm.id, alarmId), sql`${deviceAlarm.ackTime} is null`));
  }
}
