/**
 * The client and key API (docs/client-api.md): the mobile and PC apps (spec §3 Client) register and are
 * reviewed in /sys/client, sign their staff in, download the lock tasks for an electronic key and upload
 * what the key or the app did at the locks (operation records, with live photos).
 */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { fileId } from '../files.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { checkTime, requiredText } from '../validation/formats.ts';
import { OPEN_METHODS } from '../validation/lock-task-forms.ts';
import { nameText } from '../validation/org-forms.ts';
import { OPEN_REFUSALS, OPERATION_ACTIONS } from './operation-records.ts';
import { loginForm, loginResult } from './staff-session.ts';

/** The kinds of client (spec §3). */
export const CLIENT_TYPES = ['ANDROID', 'IOS', 'PC'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** Where a client's registration stands: waiting for review, passed, or rejected (it may register again). */
export const CLIENT_STATES = ['pending', 'passed', 'rejected'] as const;
export type ClientState = (typeof CLIENT_STATES)[number];

/** The header a client names itself with on the calls that need a passed client. */
export const CLIENT_HEADER = 'x-uiot-client';

const clientIdText = z
  .string({ error: 'v.required' })
  .trim()
  .min(1, { error: 'v.required' })
  .max(128, { error: 'v.tooLong' })
  .regex(/^[\w.:-]+$/, { error: 'v.invalid' });

/** A client's registration: its own id (device identifier), kind, name, phone and the code it shows. */
export const clientRegistration = z.object({
  clientId: clientIdText,
  clientType: z.enum(CLIENT_TYPES),
  name: nameText(64),
  telNo: z.string().trim().max(32, { error: 'v.tooLong' }).optional(),
  /** The code the client shows on its screen, which the reviewer compares before passing it. */
  registCode: requiredText('v.required', 32),
});
export type ClientRegistration = z.infer<typeof clientRegistration>;

/** A client as /sys/client lists it (spec §3 Client and its authorisation form). */
export const clientRow = z.object({
  id: z.string(),
  clientId: z.string(),
  clientType: z.enum(CLIENT_TYPES),
  name: z.string(),
  telNo: z.string().nullable(),
  registCode: z.string(),
  state: z.enum(CLIENT_STATES),
  regist: z.boolean(),
  requestTime: z.string(),
  registTime: z.string().nullable(),
  reviewerName: z.string().nullable(),
  resultDesc: z.string().nullable(),
  /** The staff member who signed in on it last. */
  staffId: z.string().nullable(),
  staffName: z.string().nullable(),
  /** When it last downloaded tasks. */
  sendTime: z.string().nullable(),
});
export type ClientRow = z.infer<typeof clientRow>;

export const registerClient = defineEndpoint({
  method: 'POST',
  path: '/client/register',
  access: 'public',
  module: 'tasks',
  summary: 'A client registers (again) and waits for review; answers where its registration stands',
  body: clientRegistration,
  response: z.object({ state: z.enum(CLIENT_STATES) }),
});

export const getClientState = defineEndpoint({
  method: 'GET',
  path: '/client/state',
  access: 'public',
  module: 'tasks',
  summary: "Where a client's registration stands, with the reviewer's description",
  query: z.object({ clientId: clientIdText }),
  response: z.object({ state: z.enum(CLIENT_STATES), resultDesc: z.string().nullable() }),
});

export const clientLogin = defineEndpoint({
  method: 'POST',
  path: '/client/login',
  access: 'public',
  module: 'tasks',
  summary:
    'Sign a staff member in on a client; while MobileAppRegist is on, only on a passed client, which is then bound to them',
  body: loginForm.extend({ clientId: clientIdText }),
  response: loginResult,
  secretFields: ['pwd'],
});

export const queryClientPage = defineEndpoint({
  method: 'GET',
  path: '/client/queryPage',
  access: Permission.ClientRead,
  module: 'tasks',
  summary: 'Clients, those waiting for review first, searchable by name, id and state',
  query: pageQuery.extend({
    keyword: z.string().trim().max(64).optional(),
    state: z.enum(CLIENT_STATES).optional(),
  }),
  response: pageResult(clientRow),
});

/** The review of a registration: pass or reject, with a description (required to reject). */
export const clientReviewForm = z
  .object({
    id: z.string().min(1).max(64),
    pass: z.boolean({ error: 'v.required' }),
    resultDesc: z.string().trim().max(255, { error: 'v.tooLong' }).optional(),
  })
  .superRefine((form, ctx) => {
    if (!form.pass && !form.resultDesc) {
      ctx.addIssue({ code: 'custom', path: ['resultDesc'], message: 'v.required' });
    }
  });
export type ClientReviewForm = z.infer<typeof clientReviewForm>;

export const reviewClient = defineEndpoint({
  method: 'POST',
  path: '/client/review',
  access: Permission.ClientReview,
  module: 'tasks',
  summary: "Pass or reject a client's registration, with a description",
  body: clientReviewForm,
  response: z.null(),
});

export const deleteClient = defineEndpoint({
  method: 'GET',
  path: '/client/del',
  access: Permission.ClientReview,
  module: 'tasks',
  summary: 'Remove a client: it must register again',
  query: z.object({ id: z.string().min(1).max(64) }),
  response: z.null(),
  mutating: true,
});

/** A lock code as a key uses it to open an electronic lock. */
const downloadedLockCode = z.object({
  rfidCode: z.string(),
  rfidType: z.string().nullable(),
  dnbs: z.string().nullable(),
  blueAddr: z.string().nullable(),
});

/** A task as a key takes it: its window, and the locks it may open with their codes. */
export const downloadedTask = z.object({
  id: z.string(),
  name: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  items: z.array(
    z.object({
      itemId: z.string(),
      deviceId: z.string(),
      deviceName: z.string(),
      deviceCode: z.string().nullable(),
      lockCodes: z.array(downloadedLockCode),
    }),
  ),
  /** The task's locks the key may not open, with the decision's reason (nothing of them is downloaded). */
  refused: z.array(
    z.object({ deviceId: z.string(), deviceName: z.string(), refusal: z.enum(OPEN_REFUSALS) }),
  ),
});
export type DownloadedTask = z.infer<typeof downloadedTask>;

export const downloadTasks = defineEndpoint({
  method: 'GET',
  path: '/client/downloadTasks',
  access: Permission.AppTaskDownload,
  module: 'tasks',
  summary:
    "The signed-in staff member's approved tasks for a key they hold, each lock decided for the key; sets the items' toKeyTime",
  query: z.object({ keyId: z.string().min(1).max(64) }),
  response: z.array(downloadedTask),
  mutating: true,
});

/** Most records one upload carries. */
export const MAX_UPLOADED_RECORDS = 200;

/** What a key or the app did at a lock, as the client uploads it. */
export const uploadedRecord = z.object({
  /** The client's own id of the record: sent again, it is stored once. */
  recordId: z.uuid({ error: 'v.invalid' }),
  deviceId: z.string().min(1).max(64),
  taskId: z.string().min(1).max(64).optional(),
  keyId: z.string().min(1).max(64).optional(),
  action: z.enum(OPERATION_ACTIONS),
  opMethod: z.enum(OPEN_METHODS),
  result: z.enum(['succeeded', 'failed']),
  operateTime: z.iso.datetime({ offset: true, error: 'v.invalid' }).superRefine(checkTime),
  lockCode: z.string().trim().max(64, { error: 'v.tooLong' }).optional(),
  /** A live photo uploaded before (`/file/upload`, kind `photo`). */
  photoFileId: fileId.optional(),
});
export type UploadedRecord = z.infer<typeof uploadedRecord>;

export const uploadRecords = defineEndpoint({
  method: 'POST',
  path: '/client/uploadRecords',
  access: Permission.AppRecordUpload,
  module: 'tasks',
  summary:
    'Upload operation records (idempotent by recordId), their photos attached; a task whose locks are all done finishes',
  body: z.object({
    records: z
      .array(uploadedRecord)
      .min(1, { error: 'v.required' })
      .max(MAX_UPLOADED_RECORDS, { error: 'v.tooMany' }),
  }),
  response: z.object({ stored: z.number().int(), repeated: z.number().int() }),
});
