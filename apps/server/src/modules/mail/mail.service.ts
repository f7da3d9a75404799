import type { outboxRow, Page, PageQuery } from '@uiot/contracts';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { mailOutbox } from './mail.schema.ts';
import type { MailMessage, MailTransport } from './smtp-transport.ts';

export type OutboxRow = z.infer<typeof outboxRow>;
export type OutboxState = OutboxRow['state'];

/** The part of a logger the mail service uses: never given a mail's subject or body. */
export interface MailLog {
  warn(fields: object, message: string): void;
}

const MAX_ERROR_LENGTH = 500;

/**
 * Every mail goes through the outbox: the row is written first, so nothing is lost when delivery fails
 * or the process stops; with an SMTP server the mail is then delivered in the background (the caller
 * does not wait for the SMTP conversation) and the row marked `sent` or `failed`; without one it stays
 * `kept` for the administrator.
 */
export class MailService {
  private readonly deliveries = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport | null,
    private readonly log: MailLog | null = null,
  ) {}

  /** One line for the start-up log: where mail goes (never credentials). */
  get deliveryDescription(): string {
    return this.transport
      ? `mail is delivered through ${this.transport.description}`
      : 'mail is kept in the outbox for the administrator (SMTP_URL is not set)';
  }

  /** Whether mail is delivered (an SMTP server is configured) rather than kept. */
  get delivers(): boolean {
    return this.transport !== null;
  }

  /** Writes the mail to the outbox and starts its delivery; resolves with the outbox id. */
  async send(message: MailMessage): Promise<string> {
    const id = await this.keep(message);
    if (this.transport) {
      const delivery = this.deliver(this.transport, id, message).then(() => undefined);
      this.deliveries.add(delivery);
      void delivery.finally(() => this.deliveries.delete(delivery));
    }
    return id;
  }

  /**
   * Writes the mail to the outbox and delivers it, resolving once the SMTP server has answered: for a caller
   * that keeps its own record of attempts and retries (alarm notifications). `error` is null when delivered.
   * Only where mail is delivered (`delivers`).
   */
  async sendNow(message: MailMessage): Promise<{ id: string; error: string | null }> {
    if (!this.transport) throw new Error('no SMTP server is configured: mail is only kept');
    const id = await this.keep(message);
    return { id, error: await this.deliver(this.transport, id, message) };
  }

  private async keep(message: MailMessage): Promise<string> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({
        recipient: message.to,
        subject: message.subject,
        body: message.text,
        state: this.transport ? 'pending' : 'kept',
      })
      .returning({ id: mailOutbox.id });
    return row!.id;
  }

  /** Delivers an outbox row's mail and records the outcome; resolves with the error, or null. */
  private async deliver(transport: MailTransport, id: string, message: MailMessage): Promise<string | null> {
    let error: string | null = null;
    try {
      await transport.deliver(message);
    } catch (cause) {
      error = (cause instanceof Error ? cause.message : String(cause)).slice(0, MAX_ERROR_LENGTH) || 'failed';
    }
    try {
      await this.db
        .update(mailOutbox)
        .set(
          error === null
            ? { state: 'sent', sentAt: new Date(), error: null, attempts: sql`${mailOutbox.attempts} + 1` }
            : { state: 'failed', error, attempts: sql`${mailOutbox.attempts} + 1` },
        )
        .where(eq(mailOutbox.id, id));
    } catch (cause) {
      this.log?.warn({ mailId: id, err: cause }, 'outbox row not updated after delivery');
    }
    if (error !== null) this.log?.warn({ mailId: id, error }, 'mail delivery failed');
    return error;
  }

  /** Resolves once every delivery started so far has ended (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.deliveries.size > 0) await Promise.allSettled([...this.deliveries]);
  }

  async close(): Promise<void> {
    await this.idle();
    this.transport?.close();
  }

  /** The outbox, newest first (or oldest first with `sort=createdAt&ascending=true`). */
  queryOutbox(query: PageQuery & { recipient?: string | undefined }): Promise<Page<OutboxRow>> {
    const rows = this.db
      .select()
      .from(mailOutbox)
      .where(query.recipient ? containsText(mailOutbox.recipient, query.recipient) : undefined)
      .$dynamic();
    return paged(this.db, rows, { createdAt: mailOutbox.createdAt }, query, {
      defaultSort: { by: 'createdAt', ascending: false },
      tieBreaker: mailOutbox.id,
    }).then((page) => ({
      total: page.total,
      rows: page.rows.map((r) => ({
        id: r.id,
        recipient: r.recipient,
        subject: r.subject,
        body: r.body,
        state: r.state as OutboxState,
        error: r.error,
        createdAt: r.createdAt.toISOString(),
        sentAt: r.sentAt?.toISOString() ?? null,
      })),
    }));
  }
}
