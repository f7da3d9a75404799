import { createHmac } from 'node:crypto';
import {
  type AlarmSeverity,
  CONSOLE_UTC_OFFSET_MS,
  formatMessage,
  type Lang,
  type NoticeChannel,
  type NoticeOccasion,
  type NoticeState,
  type Translated,
} from '@uiot/contracts';
import { renderJsonTemplate } from '../../lib/json-template.ts';
import { SEVERITY_TEXT } from './alarm-words.ts';

/**
 * Seconds before each retry of a failed notification: a gateway that is down for a moment is tried again
 * soon, one down for long is not hammered. After the last, the notification has failed.
 */
export const NOTICE_RETRY_SECONDS = [10, 30, 120, 600, 1800] as const;
/** Attempts a notification gets: the first and one per retry. */
export const MAX_NOTICE_ATTEMPTS = NOTICE_RETRY_SECONDS.length + 1;

/** What follows the `attempt`-th attempt (1 = the first): sent, the next attempt's time, or failed. */
export function afterAttempt(
  attempt: number,
  ok: boolean,
  at: number,
): { state: NoticeState; nextAttemptAt: number | null } {
  if (ok) return { state: 'sent', nextAttemptAt: null };
  const wait = NOTICE_RETRY_SECONDS[attempt - 1];
  return wait === undefined
    ? { state: 'failed', nextAttemptAt: null }
    : { state: 'pending', nextAttemptAt: at + wait * 1000 };
}

/** A staff member a rule notifies, as the organisation knows them. */
export interface NoticeContact {
  id: string;
  name: string;
  email: string | null;
  telNo: string | null;
}

/** One notification to write: a channel, a staff member and where it goes. */
export interface NoticeTarget {
  channel: NoticeChannel;
  staffId: string;
  staffName: string;
  address: string;
}

/**
 * Who gets what: each channel the rule asks for and the server can deliver on, to each contact that has an
 * address there (e-mail: an e-mail address, SMS: a phone number, app push: the staff id).
 */
export function noticeTargets(
  wanted: Readonly<Record<NoticeChannel, boolean>>,
  configured: Readonly<Record<NoticeChannel, boolean>>,
  contacts: readonly NoticeContact[],
): NoticeTarget[] {
  const targets: NoticeTarget[] = [];
  for (const channel of ['email', 'sms', 'push'] as const) {
    if (!wanted[channel] || !configured[channel]) continue;
    for (const contact of contacts) {
      const address =
        channel === 'email' ? contact.email?.trim() : channel === 'sms' ? contact.telNo?.trim() : contact.id;
      if (address) targets.push({ channel, staffId: contact.id, staffName: contact.name, address });
    }
  }
  return targets;
}

const SUBJECT: Record<NoticeOccasion, Translated> = {
  raised: {
    'zh-CN': '【{severity}告警】{rule} · {device}',
    en: '[{severity} alarm] {rule} · {device}',
    'zh-TW': '【{severity}告警】{rule} · {device}',
  },
  reminder: {
    'zh-CN': '【{severity}告警提醒】{rule} · {device}（第 {count} 次）',
    en: '[{severity} alarm reminder] {rule} · {device} (notice {count})',
    'zh-TW': '【{severity}告警提醒】{rule} · {device}（第 {count} 次）',
  },
};

const BODY: Translated = {
  'zh-CN':
    '{content}\n\n设备：{device}\n告警规则：{rule}\n告警时间：{time}\n\n请登录 UIOT 锁控管理平台处理。\n',
  en: '{content}\n\nDevice: {device}\nWarn rule: {rule}\nRaised at: {time}\n\nPlease sign in to the UIOT Lock Console to handle it.\n',
  'zh-TW':
    '{content}\n\n設備：{device}\n告警規則：{rule}\n告警時間：{time}\n\n請登入 UIOT 鎖控管理平台處理。\n',
};

/** The alarm a notification tells of. */
export interface NoticeAlarm {
  content: string;
  severity: AlarmSeverity;
  ruleName: string;
  deviceName: string;
  warnTime: Date;
  /** How many times its recipients have been told before (notifications delivered, per occasion). */
  sendCount: number;
}

/** Console time (UTC+8), as the console shows it: `YYYY-MM-DD HH:mm:ss`. */
export function consoleTime(at: Date): string {
  return new Date(at.getTime() + CONSOLE_UTC_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** Subject and text of a notification, in one language; the message is the alarm's content as the rule wrote it. */
export function noticeTexts(
  alarm: NoticeAlarm,
  occasion: NoticeOccasion,
  lang: Lang,
): { subject: string; message: string; mailText: string } {
  const params = {
    severity: SEVERITY_TEXT[alarm.severity][lang],
    rule: alarm.ruleName,
    device: alarm.deviceName,
    // This one included.
    count: alarm.sendCount + 1,
    content: alarm.content,
    time: consoleTime(alarm.warnTime),
  };
  return {
    subject: formatMessage(SUBJECT[occasion][lang], params),
    message: alarm.content,
    mailText: formatMessage(BODY[lang], params),
  };
}

/** What a webhook template's placeholders stand for (config NOTICE_PLACEHOLDERS). */
export interface WebhookValues {
  message: string;
  subject: string;
  phone: string;
  email: string;
  staffId: string;
  staffName: string;
  alarmId: string;
  severity: AlarmSeverity;
  occasion: NoticeOccasion;
  device: string;
  time: string;
}

/**
 * The request a webhook gets: the template's JSON with the values filled in and, with a secret, the
 * signature `X-UIOT-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` beside `X-UIOT-Timestamp`
 * (seconds), so the receiver can check the sender and refuse a replay.
 */
export function webhookRequest(
  hook: { bodyTemplate: string; secret: string | undefined },
  values: WebhookValues,
  at: number,
): { body: string; headers: Record<string, string> } {
  const body = renderJsonTemplate(hook.bodyTemplate, { ...values });
  const timestamp = String(Math.floor(at / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-uiot-timestamp': timestamp,
  };
  if (hook.secret)
    headers['x-uiot-signature'] =
      `sha256=${createHmac('sha256', hook.secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return { body, headers };
}
