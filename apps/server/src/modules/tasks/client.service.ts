import {
  type ClientRegistration,
  type ClientReviewForm,
  type ClientRow,
  type ClientState,
  type DownloadedTask,
  type FieldIssue,
  type LoginForm,
  type OpenRefusal,
  type OperationRecordRow,
  type Page,
  type PageQuery,
  ResultCode,
  type UploadedRecord,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { FileService } from '../../infra/files/file.service.ts';
import type { AuthService } from '../auth/index.ts';
import './events.ts';
import {
  bindClient,
  clientByClientId,
  deleteClientRow,
  downloadableItems,
  keyById,
  lockCodesOf,
  queryClients,
  recordDownload,
  reviewClientRow,
  type StoredClient,
  taskOfUpload,
  upsertRegistration,
} from './client.repository.ts';
import type { LockTaskService } from './lock-task.service.ts';
import { mayOpen } from './open-decision.ts';
import {
  loadOpener,
  loadOpeningOf,
  type Opener,
  type OpeningDevice,
  openingDevices,
} from './opening-facts.repository.ts';
import { insertRecordOnce, PHOTO_REF } from './operation-record.repository.ts';

/** How far ahead of the server's clock an uploaded record may be dated (a phone's clock). */
const CLIENT_CLOCK_SKEW_MS = 5 * 60_000;

export interface ClientServiceOptions {
  db: Db;
  auth: Pick<AuthService, 'login'>;
  files: Pick<FileService, 'attach'>;
  lockTasks: Pick<LockTaskService, 'itemDone'>;
  events: EventBus;
  /** The parameter MobileAppRegist: clients must be registered and passed before use. */
  registrationRequired: () => Promise<boolean>;
  /** The parameter PreStoreTask: approved tasks may be downloaded to a key before they start. */
  preStore: () => Promise<boolean>;
  now?: (() => Date) | undefined;
}

/**
 * The client and key API (docs/client-api.md): registration and review of the apps, signing their staff
 * in, task download to a key (each lock decided by `mayOpen` for the key) and the upload of what was done,
 * stored once per client record id, its photo attached, the task's item done.
 */
export class ClientService {
  private readonly db: Db;
  private readonly now: () => Date;

  constructor(private readonly options: ClientServiceOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
  }

  async register(form: ClientRegistration): Promise<{ state: ClientState }> {
    return { state: await upsertRegistration(this.db, form, this.now()) };
  }

  async state(clientId: string): Promise<{ state: ClientState; resultDesc: string | null }> {
    const client = await clientByClientId(this.db, clientId);
    if (!client) throw new AppError(ResultCode.ClientUnknown);
    return { state: client.state, resultDesc: client.state === 'rejected' ? client.resultDesc : null };
  }

  /**
   * Signs a staff member in on a client: while registration is required, only on a passed client (checked
   * before the password, so that an unreviewed client learns nothing of accounts). The client is bound to
   * the staff member, whose calls name it from then on.
   */
  async login(form: LoginForm & { clientId: string }, ipAddr: string) {
    const client = await clientByClientId(this.db, form.clientId);
    if (await this.options.registrationRequired()) this.requirePassed(client);
    const result = await this.options.auth.login({ name: form.name, pwd: form.pwd }, ipAddr);
    if (client) await bindClient(this.db, client.id, { staffId: result.userId, staffName: result.userName });
    return result;
  }

  query(
    search: { keyword?: string | undefined; state?: ClientState | undefined },
    page: PageQuery,
  ): Promise<Page<ClientRow>> {
    return queryClients(this.db, search, page);
  }

  async review(form: ClientReviewForm, user: SessionUser): Promise<void> {
    const found = await reviewClientRow(this.db, form.id, {
      state: form.pass ? 'passed' : 'rejected',
      resultDesc: form.resultDesc || null,
      reviewerId: user.staffId,
      reviewerName: user.staffName,
      at: this.now(),
    });
    if (!found) throw new AppError(ResultCode.NotFound);
  }

  async remove(id: string): Promise<void> {
    if (!(await deleteClientRow(this.db, id))) throw new AppError(ResultCode.NotFound);
  }

  /**
   * The client a call comes from (the `x-uiot-client` header): while registration is required it must be
   * passed and bound to the signed-in staff member; otherwise a client that names itself is still checked.
   */
  async callingClient(clientId: string | undefined, user: SessionUser): Promise<StoredClient | null> {
    const required = await this.options.registrationRequired();
    if (!clientId) {
      if (required) throw new AppError(ResultCode.ClientUnknown);
      return null;
    }
    const client = await clientByClientId(this.db, clientId);
    if (!required && !client) return null;
    const passed = this.requirePassed(client);
    if (passed.staffId !== user.staffId) throw new AppError(ResultCode.ClientNotPassed);
    return passed;
  }

  /**
   * The staff member's approved tasks for a key they hold: each lock is decided for the key at the task's
   * start (or now, once started); the allowed ones are downloaded with their lock codes and get their
   * toKeyTime, the others are named with the decision's reason, which their items keep (the task's details
   * show it).
   */
  async downloadTasks(
    keyId: string,
    user: SessionUser,
    client: StoredClient | null,
  ): Promise<DownloadedTask[]> {
    const key = await keyById(this.db, keyId);
    if (!key || key.staffId !== user.staffId) throw new AppError(ResultCode.KeyNotYours);
    const now = this.now();
    const items = await downloadableItems(this.db, {
      staffId: user.staffId,
      keyId,
      now,
      preStore: await this.options.preStore(),
    });
    const tasks = new Map<string, DownloadedTask>();
    const sent: string[] = [];
    const refused: { itemId: string; refusal: OpenRefusal }[] = [];
    const deviceIds = [...new Set(items.map((i) => i.deviceId))];
    // Who opens and with which key, and every lock, are read once; each lock's tasks and grants, per lock.
    const [codes, devices, opener] = await Promise.all([
      lockCodesOf(this.db, deviceIds),
      openingDevices(this.db, deviceIds),
      loadOpener(this.db, user.staffId, keyId),
    ]);
    for (const item of items) {
      let task = tasks.get(item.taskId);
      if (!task) {
        task = {
          id: item.taskId,
          name: item.taskName,
          startTime: item.startTime.toISOString(),
          endTime: item.endTime.toISOString(),
          items: [],
          refused: [],
        };
        tasks.set(item.taskId, task);
      }
      const device = devices.get(item.deviceId);
      if (!device) continue;
      const loaded = await loadOpeningOf(this.db, opener, device);
      const at = Math.max(now.getTime(), item.startTime.getTime());
      const decision = mayOpen({ at, method: 'key', keyId }, loaded.facts);
      if (!decision.allowed) {
        task.refused.push({
          deviceId: item.deviceId,
          deviceName: item.deviceName,
          refusal: decision.refusal,
        });
        refused.push({ itemId: item.itemId, refusal: decision.refusal });
        continue;
      }
      sent.push(item.itemId);
      task.items.push({
        itemId: item.itemId,
        deviceId: item.deviceId,
        deviceName: item.deviceName,
        deviceCode: item.deviceCode,
        lockCodes: codes.get(item.deviceId) ?? [],
      });
    }
    await recordDownload(this.db, { sent, refused }, now);
    if (client) await bindClient(this.db, client.id, { sendTime: now });
    return [...tasks.values()];
  }

  /**
   * Stores uploaded records once each (by the client's record id), the upload time set and the photo
   * attached. Every record refers to an existing device (and task, key) and is not dated in the future, or the
   * upload is refused with field errors. A successful opening is decided like any other (`mayOpen`, for the
   * uploader, at the record's time, by its method and key): allowed, it is recorded under the task or
   * authorisation that allowed it, and under a task it marks the task's item done (the task finishes when all
   * are); refused, it is recorded with its refusal as an opening nothing covered, which raises an alarm. A
   * record never completes work its uploader was not given, nor hides an opening.
   */
  async uploadRecords(
    records: readonly UploadedRecord[],
    user: SessionUser,
  ): Promise<{ stored: number; repeated: number }> {
    const now = this.now();
    const checked = await this.checkUploads(records, now);
    const openers = new Map<string, Promise<Opener>>();
    const openerWith = (keyId: string | null) => {
      let opener = openers.get(keyId ?? '');
      if (!opener) {
        opener = loadOpener(this.db, user.staffId, keyId);
        openers.set(keyId ?? '', opener);
      }
      return opener;
    };
    const stored: OperationRecordRow[] = [];
    let repeated = 0;
    for (const { record, device, taskName, keyName } of checked) {
      const operateTime = new Date(record.operateTime);
      const decided =
        record.action === 'open' && record.result === 'succeeded'
          ? await this.decideUploaded(record, device, operateTime, await openerWith(record.keyId ?? null))
          : null;
      const row = await this.db.transaction(async (tx) => {
        const inserted = await insertRecordOnce(tx, {
          stationId: device.stationId,
          deviceId: device.id,
          deviceName: device.name,
          deviceCode: device.code,
          staffId: user.staffId,
          staffName: user.staffName,
          keyId: record.keyId ?? null,
          keyName,
          lockCode: record.lockCode || null,
          // An opening is recorded under what allowed it; other records under the task the client named.
          taskId: decided ? decided.taskId : (record.taskId ?? null),
          taskName: decided ? decided.taskName : taskName,
          authorizationId: decided?.authorizationId ?? null,
          action: record.action,
          opMethod: record.opMethod,
          source: 'client',
          result: record.result,
          refusal: decided?.refusal ?? null,
          commandId: null,
          commandState: null,
          covered: decided ? decided.refusal === null : null,
          photoFileId: record.photoFileId ?? null,
          operateTime,
          uploadTime: now,
          clientRecordId: `client:${record.recordId}`,
        });
        if (!inserted) return null;
        if (record.photoFileId) {
          await this.options.files.attach(tx, {
            id: record.photoFileId,
            ownerId: user.staffId,
            kind: 'photo',
            ref: { type: PHOTO_REF, id: inserted.id },
          });
        }
        if (decided?.taskId) await this.options.lockTasks.itemDone(tx, decided.taskId, device.id, now);
        return inserted;
      });
      if (!row) {
        repeated++;
        continue;
      }
      stored.push(row);
      if (decided?.refusal) {
        this.options.events.publish('opening.uncovered', {
          recordId: row.id,
          deviceId: device.id,
          stationId: device.stationId,
          at: operateTime.getTime(),
        });
      }
    }
    if (stored.length > 0) this.options.events.publish('operation.recorded', { records: stored });
    return { stored: stored.length, repeated };
  }

  /**
   * The "who may open" decision of an uploaded opening: for the uploader at the record's time, the task the
   * client named first (when it allows, the record keeps it), else whatever allows.
   */
  private async decideUploaded(
    record: UploadedRecord,
    device: OpeningDevice,
    at: Date,
    opener: Opener,
  ): Promise<{
    taskId: string | null;
    taskName: string | null;
    authorizationId: string | null;
    refusal: OpenRefusal | null;
  }> {
    const loaded = await loadOpeningOf(this.db, opener, device, at);
    const request = {
      at: at.getTime(),
      method: record.opMethod,
      keyId: record.keyId ?? null,
      happened: true,
    };
    const named = record.taskId
      ? mayOpen(request, {
          ...loaded.facts,
          tasks: loaded.facts.tasks.filter((t) => t.id === record.taskId),
          authorizations: [],
        })
      : null;
    const decision = named?.allowed ? named : mayOpen(request, loaded.facts);
    if (!decision.allowed) {
      return { taskId: null, taskName: null, authorizationId: null, refusal: decision.refusal };
    }
    return decision.by === 'task'
      ? {
          taskId: decision.taskId,
          taskName: loaded.taskNames.get(decision.taskId) ?? null,
          authorizationId: null,
          refusal: null,
        }
      : { taskId: null, taskName: null, authorizationId: decision.authorizationId, refusal: null };
  }

  private async checkUploads(records: readonly UploadedRecord[], now: Date) {
    const issues: FieldIssue[] = [];
    const checked = [];
    // An upload's records mostly share their locks, tasks and keys: each is read once.
    const distinct = (ids: (string | null | undefined)[]) =>
      [...new Set(ids.filter((id) => !!id))] as string[];
    const [devices, tasks, keys] = await Promise.all([
      openingDevices(
        this.db,
        records.map((r) => r.deviceId),
      ),
      Promise.all(
        distinct(records.map((r) => r.taskId)).map(
          async (id) => [id, await taskOfUpload(this.db, id)] as const,
        ),
      ),
      Promise.all(
        distinct(records.map((r) => r.keyId)).map(async (id) => [id, await keyById(this.db, id)] as const),
      ),
    ]);
    const taskOf = new Map(tasks);
    const keyOf = new Map(keys);
    for (const [i, record] of records.entries()) {
      const device = devices.get(record.deviceId);
      if (!device) issues.push({ path: `records.${i}.deviceId`, message: 'v.unknownDevice' });
      const task = record.taskId ? taskOf.get(record.taskId) : null;
      if (record.taskId && !task) issues.push({ path: `records.${i}.taskId`, message: 'v.unknownTask' });
      const key = record.keyId ? keyOf.get(record.keyId) : null;
      if (record.keyId && !key) issues.push({ path: `records.${i}.keyId`, message: 'v.unknownKey' });
      // A phone's clock may run a little ahead; a record of what is still to come is not a record.
      if (Date.parse(record.operateTime) > now.getTime() + CLIENT_CLOCK_SKEW_MS) {
        issues.push({ path: `records.${i}.operateTime`, message: 'v.notFuture' });
      }
      if (device) checked.push({ record, device, taskName: task?.name ?? null, keyName: key?.name ?? null });
    }
    if (issues.length > 0) throw AppError.invalid(issues);
    return checked;
  }

  private requirePassed(client: StoredClient | undefined): StoredClient {
    if (!client) throw new AppError(ResultCode.ClientUnknown);
    if (client.state === 'pending') throw new AppError(ResultCode.ClientNotPassed);
    if (client.state === 'rejected') {
      throw new AppError(ResultCode.ClientRejected, { params: { reason: client.resultDesc ?? '' } });
    }
    return client;
  }
}
