import {
  type FieldIssue,
  type LockTaskAbilities,
  type LockTaskForm,
  type LockTaskRow,
  type LockTaskScope,
  type LockTaskState,
  type Page,
  type PageQuery,
  Permission,
  ResultCode,
  type TodayTask,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { consoleDay } from '../../lib/console-day.ts';
import { loadStaffAccess } from '../org/index.ts';
import { inAuditScope } from './audit-scope.ts';
import {
  applyChange,
  claimDueTasks,
  deleteTask,
  departmentPathOf,
  insertTask,
  markItemDone,
  operatorsOf,
  partsOf,
  queryTasks,
  type StoredTask,
  type TaskViewer,
  taskById,
  tasksOverlapping,
  unknownReferences,
  updateTaskForm,
} from './lock-task.repository.ts';
import { type LockTaskInput, type LockTaskSnapshot, next, type TaskActor } from './lock-task-machine.ts';

/** Most tasks one pass of the time job moves (the next pass takes the rest). */
const TASKS_PER_PASS = 200;

/** Whether lock tasks need an audit (the parameter `TaskNeedAudit`). */
export type NeedAudit = () => Promise<boolean>;

const snapshotOf = (task: StoredTask): LockTaskSnapshot => ({
  state: task.state,
  authFlag: task.authFlag,
  creatorId: task.creatorId,
  startTime: task.startTime.getTime(),
  endTime: task.endTime.getTime(),
});

const iso = (date: Date | null) => date?.toISOString() ?? null;
const named = (id: string | null, name: string | null) => (id ? { id, name: name ?? '' } : null);

/**
 * Lock tasks (spec §3, §4, §5; /task/lock-task): written by their creator, handed in, audited, executed
 * and finished as the task machine says (lock-task-machine.ts, docs/lock-tasks.md). Every change is one
 * transaction on the locked task; the machine decides it, this service stores it.
 */
export class LockTaskService {
  constructor(
    private readonly db: Db,
    private readonly needAudit: NeedAudit,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async query(
    search: {
      keyword?: string | undefined;
      state?: LockTaskState | undefined;
      scope?: LockTaskScope | undefined;
    },
    page: PageQuery,
    user: SessionUser,
  ): Promise<Page<LockTaskRow>> {
    const viewer = await this.viewerOf(user);
    const result = await queryTasks(this.db, search, page, viewer);
    return { total: result.total, rows: await this.rowsOf(result.rows, user, viewer) };
  }

  /** Approved tasks whose time includes today (the console's day), starting first, at most `limit`. */
  async today(limit: number, user: SessionUser): Promise<TodayTask> {
    const found = await tasksOverlapping(this.db, consoleDay(this.now().getTime()), limit);
    return { total: found.total, rows: await this.rowsOf(found.rows, user, await this.viewerOf(user)) };
  }

  async get(id: string, user: SessionUser): Promise<LockTaskRow> {
    const task = await taskById(this.db, id);
    if (!task) throw new AppError(ResultCode.NotFound);
    const [row] = await this.rowsOf([task], user, await this.viewerOf(user));
    return row!;
  }

  create(form: LockTaskForm, user: SessionUser): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await this.checkReferences(tx, form, user.staffId);
      return { id: await insertTask(tx, form, user) };
    });
  }

  async update({ id, ...form }: LockTaskForm & { id: string }, user: SessionUser): Promise<void> {
    // Read before the transaction: the parameter is not read on the transaction's connection.
    const needAudit = await this.needAudit();
    return this.acting(id, user, async (tx, task, actor) => {
      const at = this.now().getTime();
      const change = this.decide(task, {
        kind: 'edit',
        at,
        actor,
        needAudit,
        startTime: Date.parse(form.startTime),
        endTime: Date.parse(form.endTime),
      });
      await this.checkReferences(tx, form, task.creatorId);
      await updateTaskForm(tx, id, form);
      if (change) await applyChange(tx, id, change);
    });
  }

  async submit(id: string, user: SessionUser): Promise<void> {
    // Read before the transaction: the parameter is not read on the transaction's connection.
    const needAudit = await this.needAudit();
    return this.step(id, user, (at, actor) => ({ kind: 'submit', at, actor, needAudit }));
  }

  pass(id: string, user: SessionUser): Promise<void> {
    return this.step(id, user, (at, actor) => ({ kind: 'pass', at, actor }));
  }

  reject(id: string, reason: string, user: SessionUser): Promise<void> {
    return this.step(id, user, (at, actor) => ({ kind: 'reject', at, actor, reason }));
  }

  cancel(id: string, user: SessionUser): Promise<void> {
    return this.step(id, user, (at, actor) => ({ kind: 'cancel', at, actor }));
  }

  forceEnd(id: string, reason: string, user: SessionUser): Promise<void> {
    return this.step(id, user, (at, actor) => ({ kind: 'forceEnd', at, actor, reason }));
  }

  /** Deletes one's own task that was never approved (New) or was withdrawn (Cancel). */
  remove(id: string, user: SessionUser): Promise<void> {
    return this.acting(id, user, async (tx, task) => {
      if (task.creatorId !== user.staffId) throw new AppError(ResultCode.LockTaskNotCreator);
      if (!mayDelete(task)) throw new AppError(ResultCode.LockTaskWrongState);
      await deleteTask(tx, id);
    });
  }

  /**
   * A client uploaded what was done at the task's lock: the item is done (its upload time), and a task all of
   * whose items are done finishes (`itemsDone`). In the caller's transaction.
   */
  async itemDone(tx: Db, taskId: string, deviceId: string, at: Date): Promise<void> {
    const task = await taskById(tx, taskId, true);
    if (!task) return;
    const left = await markItemDone(tx, taskId, deviceId, at);
    if (left > 0) return;
    const answer = next(snapshotOf(task), { kind: 'itemsDone', at: at.getTime() });
    if (answer.ok && answer.change) await applyChange(tx, taskId, answer.change);
  }

  /** Moves approved tasks whose start or end time has come (the time job); returns how many moved. */
  async tick(): Promise<number> {
    const at = this.now();
    return this.db.transaction(async (tx) => {
      const due = await claimDueTasks(tx, at, TASKS_PER_PASS);
      let moved = 0;
      for (const task of due) {
        const answer = next(
          { ...task, startTime: task.startTime.getTime(), endTime: task.endTime.getTime() },
          { kind: 'tick', at: at.getTime() },
        );
        if (answer.ok && answer.change) {
          await applyChange(tx, task.id, answer.change);
          moved++;
        }
      }
      return moved;
    });
  }

  private step(
    id: string,
    user: SessionUser,
    input: (at: number, actor: TaskActor) => LockTaskInput,
  ): Promise<void> {
    return this.acting(id, user, async (tx, task, actor) => {
      const change = this.decide(task, input(this.now().getTime(), actor));
      if (change) await applyChange(tx, id, change, user);
    });
  }

  /** Runs `work` in a transaction on the locked task, with the user as the machine's actor. */
  private async acting(
    id: string,
    user: SessionUser,
    work: (tx: Db, task: StoredTask, actor: TaskActor) => Promise<void>,
  ): Promise<void> {
    const viewer = await this.viewerOf(user);
    await this.db.transaction(async (tx) => {
      const task = await taskById(tx, id, true);
      if (!task) throw new AppError(ResultCode.NotFound);
      await work(tx, task, this.actorOf(task, user, viewer, await operatorsOf(tx, id)));
    });
  }

  /** The machine's answer, or its refusal as the API's error. */
  private decide(task: StoredTask, input: LockTaskInput) {
    const answer = next(snapshotOf(task), input);
    if (!answer.ok) throw new AppError(ResultCode[answer.refusal]);
    return answer.change;
  }

  /**
   * May this user audit this task: holding `lockTask.audit` and in its audit scope (`inAuditScope`); the
   * administrator audits any task (never one of their own: the machine).
   */
  private actorOf(
    task: StoredTask,
    user: SessionUser,
    viewer: TaskViewer,
    operators: readonly { id: string }[],
  ): TaskActor {
    const holds = user.isAdmin || user.permissions.has(Permission.LockTaskAudit);
    return {
      staffId: user.staffId,
      mayAudit: holds && (user.isAdmin || inAuditScope(task, user.staffId, viewer.departmentPath)),
      operates: operators.some((operator) => operator.id === user.staffId),
    };
  }

  private async viewerOf(user: SessionUser): Promise<TaskViewer> {
    return { staffId: user.staffId, departmentPath: await departmentPathOf(this.db, user.staffId) };
  }

  private async rowsOf(tasks: StoredTask[], user: SessionUser, viewer: TaskViewer): Promise<LockTaskRow[]> {
    const parts = await partsOf(
      this.db,
      tasks.map((t) => t.id),
    );
    const at = this.now().getTime();
    return tasks.map((task) => ({
      id: task.id,
      name: task.name,
      startTime: task.startTime.toISOString(),
      endTime: task.endTime.toISOString(),
      state: task.state,
      authFlag: task.authFlag,
      reason: task.reason,
      auditedByName: task.auditedByName,
      auditedAt: iso(task.auditedAt),
      auditDept: named(task.auditDeptId, task.auditDeptName),
      auditor: named(task.auditorId, task.auditorName),
      operateDept: named(task.operateDeptId, task.operateDeptName),
      operators: parts.operators.get(task.id) ?? [],
      allDevice: task.allDevice,
      items: parts.items.get(task.id) ?? [],
      finishFlag: task.finishFlag,
      finishTime: iso(task.finishTime),
      taskSource: task.taskSource,
      creatorId: task.creatorId,
      creatorName: task.creatorName,
      createdAt: task.createdAt.toISOString(),
      abilities: this.abilitiesOf(task, user, viewer, at, parts.operators.get(task.id) ?? []),
    }));
  }

  /** What the user may do with the task now: what the machine would allow, with the keys of the calls. */
  private abilitiesOf(
    task: StoredTask,
    user: SessionUser,
    viewer: TaskViewer,
    at: number,
    operators: readonly { id: string }[],
  ): LockTaskAbilities {
    const actor = this.actorOf(task, user, viewer, operators);
    const holds = (key: string) => user.isAdmin || user.permissions.has(key);
    const allows = (input: LockTaskInput) => next(snapshotOf(task), input).ok;
    const window = { startTime: task.startTime.getTime(), endTime: task.endTime.getTime() };
    return {
      update:
        holds(Permission.LockTaskUpdate) && allows({ kind: 'edit', at, actor, needAudit: true, ...window }),
      submit: holds(Permission.LockTaskUpdate) && allows({ kind: 'submit', at, actor, needAudit: true }),
      audit: allows({ kind: 'reject', at, actor, reason: '-' }),
      cancel: holds(Permission.LockTaskUpdate) && allows({ kind: 'cancel', at, actor }),
      forceEnd: holds(Permission.LockTaskForceEnd) && allows({ kind: 'forceEnd', at, actor, reason: '-' }),
      delete: holds(Permission.LockTaskDelete) && task.creatorId === user.staffId && mayDelete(task),
    };
  }

  /**
   * Everything the form names exists; a named auditor is someone who may audit it: holding `lockTask.audit`
   * (or role admin), neither its creator nor one of its operators (the machine would refuse them all).
   */
  private async checkReferences(db: Db, form: LockTaskForm, creatorId: string): Promise<void> {
    const missing = await unknownReferences(db, form);
    const issues: FieldIssue[] = missing.map((path) => ({
      path,
      message: path.endsWith('deviceId')
        ? 'v.unknownDevice'
        : path.endsWith('keyId')
          ? 'v.unknownKey'
          : 'v.unknownObject',
    }));
    if (form.auditorId && !missing.includes('auditorId')) {
      const access = await loadStaffAccess(db, form.auditorId);
      const mayAudit = access.isAdmin || access.permissions.has(Permission.LockTaskAudit);
      if (!mayAudit || form.auditorId === creatorId || form.operatorIds.includes(form.auditorId)) {
        issues.push({ path: 'auditorId', message: 'v.taskAuditor' });
      }
    }
    if (issues.length > 0) throw AppError.invalid(issues);
  }
}

/**
 * A task that never granted anything may go: never approved (a `New` task back from a rejected change was,
 * and its records and keys refer to it), or withdrawn before it started.
 */
function mayDelete(task: StoredTask): boolean {
  return (task.state === 'New' && task.approvedAt === null) || task.state === 'Cancel';
}
