import {
  DEFAULT_LANG,
  type Lang,
  type NoticeChannel,
  type NoticeChannelsConfigured,
  type NoticeOccasion,
} from '@uiot/contracts';
import { type NoticeWebhook, WEBHOOK_CHANNELS, type WebhookChannel } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import type { MailService } from '../mail/index.ts';
import { staffContacts } from '../org/index.ts';
import { alarmChanges } from './alarm.repository.ts';
import {
  claimDueNotices,
  type DueNotice,
  insertNotices,
  recordAttempt,
  ruleRecipients,
} from './notice.repository.ts';
import {
  afterAttempt,
  consoleTime,
  type NoticeAlarm,
  noticeTargets,
  noticeTexts,
  webhookRequest,
} from './notice-plan.ts';

/** Most notifications one pass delivers (the next pass takes the rest). */
const NOTICES_PER_PASS = 50;
/** How long a webhook may take to answer. */
const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * How long a claimed notification is left to its delivery before another pass may take it again: longer
 * than a webhook's timeout and an SMTP conversation's.
 */
const DELIVERY_LEASE_MS = 5 * 60_000;
/** Most characters of an error kept in the attempt log. */
const MAX_DETAIL = 300;

/** What went wrong, with its cause (fetch says "fetch failed" and keeps the reason in `cause`). */
function failureOf(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? errorMessage(error.cause) : '';
  const message =
    error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : errorMessage(error);
  return cause ? `${message}: ${cause}` : message;
}

/** What a rule asks to be notified on. */
export interface NoticeRule {
  id: string;
  notices: Readonly<Record<NoticeChannel, boolean>>;
}

export interface AlarmNotifierOptions {
  webhooks: Partial<Record<WebhookChannel, NoticeWebhook>>;
  logger: ModuleLogger;
  now?: () => number;
  /** Language of the subjects and mail texts (the console's default). */
  lang?: Lang;
  /** Where `alarm.changed` is published when deliveries told an alarm's recipients once more. */
  events?: Pick<EventBus, 'publish'>;
}

/**
 * Tells a rule's recipients of its alarms by e-mail (the mail module), SMS and app push (HTTP webhooks,
 * docs/alarms.md "Notifications"). Notifications are written in the runner's transaction (`enqueue`), then
 * delivered by `deliverDue`, each attempt logged and a failed one retried with backoff. Nothing is written
 * for a channel the server cannot deliver on.
 */
export class AlarmNotifier {
  private readonly now: () => number;
  private readonly lang: Lang;
  private readonly webhooks: Partial<Record<WebhookChannel, NoticeWebhook>>;
  private readonly logger: ModuleLogger;
  private readonly events: Pick<EventBus, 'publish'> | undefined;

  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    options: AlarmNotifierOptions,
  ) {
    this.webhooks = options.webhooks;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.lang = options.lang ?? DEFAULT_LANG;
    this.events = options.events;
  }

  /** The channels the server delivers on: e-mail with an SMTP server, SMS and push with their webhook. */
  get channels(): NoticeChannelsConfigured {
    return {
      email: this.mail.delivers,
      sms: this.webhooks.sms !== undefined,
      push: this.webhooks.push !== undefined,
    };
  }

  /** One line for the start-up log: which channels deliver, and where (hosts only, never secrets). */
  get channelsDescription(): string {
    const hostOf = (url: string) => {
      try {
        return new URL(url).host;
      } catch {
        return '?';
      }
    };
    const { email } = this.channels;
    const parts = [
      email ? 'e-mail through the mail server' : 'no e-mail (SMTP_URL is not set)',
      ...WEBHOOK_CHANNELS.map((channel) => {
        const hook = this.webhooks[channel];
        const name = channel === 'sms' ? 'SMS' : 'app push';
        const variable = channel === 'sms' ? 'SMS_WEBHOOK_URL' : 'PUSH_WEBHOOK_URL';
        return hook
          ? `${name} through ${hostOf(hook.url)}${hook.secret ? ' (signed)' : ''}`
          : `no ${name} (${variable} is not set)`;
      }),
    ];
    return `alarm notifications: ${parts.join(', ')}`;
  }

  /** Whether an alarm of the rule notifies anyone's channel at all (no query when not). */
  notifies(rule: NoticeRule): boolean {
    const configured = this.channels;
    return (['email', 'sms', 'push'] as const).some((c) => rule.notices[c] && configured[c]);
  }

  /** Writes the notifications of an alarm raised or reminded of, in the caller's transaction. */
  async enqueue(
    tx: Db,
    rule: NoticeRule,
    alarm: NoticeAlarm & { id: string },
    occasion: NoticeOccasion,
    at: number,
  ): Promise<void> {
    if (!this.notifies(rule)) return;
    const contacts = await staffContacts(tx, await ruleRecipients(tx, rule.id));
    const targets = noticeTargets(rule.notices, this.channels, contacts);
    if (targets.length === 0) return;
    const texts = noticeTexts(alarm, occasion, this.lang);
    await insertNotices(
      tx,
      targets.map((target) => ({
        alarmId: alarm.id,
        occasion,
        ...target,
        subject: texts.subject,
        message: target.channel === 'email' ? texts.mailText : texts.message,
        nextAttemptAt: new Date(at),
      })),
    );
  }

  /** Delivers the notifications whose time has come; resolves with how many were attempted. */
  async deliverDue(): Promise<number> {
    const now = this.now();
    const due = await claimDueNotices(
      this.db,
      new Date(now),
      new Date(now + DELIVERY_LEASE_MS),
      NOTICES_PER_PASS,
    );
    const counted = await Promise.all(due.map((notice) => this.attempt(notice)));
    const told = [...new Set(due.filter((_, i) => counted[i]).map((notice) => notice.alarmId))];
    if (told.length > 0 && this.events) {
      try {
        const alarms = await alarmChanges(this.db, told);
        if (alarms.length > 0) this.events.publish('alarm.changed', { alarms });
      } catch (error) {
        // The count is stored; the console sees it with its next alarm change or refresh.
        this.logger.error({ error: errorMessage(error) }, 'alarm notification count not announced');
      }
    }
    return due.length;
  }

  /** Delivers one notification; resolves with whether it told its alarm's recipients once more. */
  private async attempt(notice: DueNotice): Promise<boolean> {
    const attempt = notice.attempts + 1;
    let ok: boolean;
    let detail: string;
    try {
      ({ ok, detail } = await this.deliver(notice));
    } catch (error) {
      ok = false;
      detail = failureOf(error);
    }
    const at = this.now();
    const next = afterAttempt(attempt, ok, at);
    let counted = false;
    try {
      counted = await recordAttempt(
        this.db,
        { id: notice.id, attempt, alarmId: notice.alarmId },
        {
          at: new Date(at),
          ok,
          detail: detail.slice(0, MAX_DETAIL) || (ok ? 'ok' : 'failed'),
          state: next.state,
          nextAttemptAt: next.nextAttemptAt === null ? null : new Date(next.nextAttemptAt),
        },
      );
    } catch (error) {
      // The lease runs out and the notification is tried again: it may be delivered twice, never lost.
      this.logger.error(
        { noticeId: notice.id, error: errorMessage(error) },
        'notification attempt not recorded',
      );
    }
    if (!ok)
      this.logger.warn(
        { noticeId: notice.id, channel: notice.channel, attempt, state: next.state },
        'alarm notification not delivered',
      );
    return counted;
  }

  private async deliver(notice: DueNotice): Promise<{ ok: boolean; detail: string }> {
    if (notice.channel === 'email') {
      const sent = await this.mail.sendNow({
        to: notice.address,
        subject: notice.subject,
        text: notice.message,
      });
      return sent.error === null
        ? { ok: true, detail: `delivered (mail ${sent.id})` }
        : { ok: false, detail: sent.error };
    }
    const hook = this.webhooks[notice.channel];
    if (!hook) return { ok: false, detail: `the ${notice.channel} webhook is no longer configured` };
    const request = webhookRequest(
      hook,
      {
        message: notice.message,
        subject: notice.subject,
        phone: notice.channel === 'sms' ? notice.address : '',
        email: '',
        staffId: notice.staffId,
        staffName: notice.staffName,
        alarmId: notice.alarmId,
        severity: notice.severity,
        occasion: notice.occasion,
        device: notice.deviceName,
        time: consoleTime(notice.warnTime),
      },
      this.now(),
    );
    const response = await fetch(hook.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      redirect: 'error',
    });
    await response.body?.cancel();
    return { ok: response.ok, detail: `HTTP ${response.status}` };
  }
}
