import { ResultCode } from '@uiot/contracts';
import { decodeNbCallback, MAX_CALLBACK_BODY_BYTES, type NbPlatform } from '@uiot/device-protocol';
import { AppError } from '../../http/app-error.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import type { IngestPipeline } from './ingest/ingest-pipeline.ts';
import type { RejectReason } from './ingest/ingest-stats.ts';

export type NbCallbackSecrets = Partial<Record<NbPlatform, string>>;

/**
 * Why a callback refused before its body was decoded is counted: its size, type, nesting or text (413,
 * 415, 400), or a wrong secret. Undefined for what is not the caller's doing (a closed platform, a fault).
 */
export function refusalReason(error: Error & { statusCode?: number }): RejectReason | undefined {
  if (error instanceof AppError) {
    if (error.code === ResultCode.Forbidden) return 'unauthorized';
    if (error.code === ResultCode.PayloadTooLarge) return 'oversized';
    if (error.code === ResultCode.InvalidInput) return 'invalid';
    if (error.code === ResultCode.InputTooDeep) return 'malformed';
    return undefined;
  }
  if (error.statusCode === 413) return 'oversized';
  if (error.statusCode === 415) return 'unsupported';
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return 'malformed';
  return undefined;
}

/**
 * The NB-IoT platforms' HTTP callbacks: the platform's shared secret is checked on every call before its
 * body is read, the body decoded (reports and command states, possibly several at once) and every message
 * ingested. The answer comes once all are committed, so a platform that retries on failure never loses one.
 */
export class NbCallbackService {
  constructor(
    private readonly ingest: IngestPipeline,
    private readonly secrets: NbCallbackSecrets,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refuses a caller without the platform's secret (403), or any caller of a closed platform (404). */
  authenticate(platform: NbPlatform, token: string | undefined): void {
    const secret = this.secrets[platform];
    // An unconfigured platform is closed: nothing it sends is trusted.
    if (!secret) throw new AppError(ResultCode.NotFound);
    if (!token || !sameSecret(token, secret)) throw new AppError(ResultCode.Forbidden);
  }

  /** Counts a callback refused before its body was decoded (see `refusalReason`). */
  countRefusal(platform: NbPlatform, error: Error): void {
    const reason = refusalReason(error);
    if (reason) this.ingest.refuse(reason, { protocol: 'nbiot', platform });
  }

  /** Decodes and ingests an authenticated callback; `rawBody` is its JSON text as received. */
  async receive(
    platform: NbPlatform,
    body: unknown,
    rawBody: string,
  ): Promise<{ accepted: number; duplicates: number; refused: number }> {
    if (Buffer.byteLength(rawBody, 'utf8') > MAX_CALLBACK_BODY_BYTES) {
      this.ingest.refuse('oversized', { protocol: 'nbiot', platform });
      throw new AppError(ResultCode.PayloadTooLarge);
    }
    if (this.ingest.saturated) {
      this.ingest.refuse('overloaded', { protocol: 'nbiot', platform });
      throw new AppError(ResultCode.ServiceUnavailable);
    }
    const decoded = decodeNbCallback(platform, body);
    if (!decoded.ok) {
      this.ingest.refuse(decoded.reason, { protocol: 'nbiot', platform, detail: decoded.detail });
      throw AppError.invalid([{ path: 'body', message: 'v.invalid' }]);
    }
    const receivedAt = this.now();
    const outcomes = await Promise.all(
      decoded.value.map(({ imei, message }) =>
        this.ingest.submit({
          protocol: 'nbiot',
          address: { by: 'imei', imei },
          message,
          raw: rawBody,
          receivedAt,
        }),
      ),
    );
    return {
      accepted: outcomes.filter((o) => o === 'stored').length,
      duplicates: outcomes.filter((o) => o === 'duplicate').length,
      refused: outcomes.filter((o) => o !== 'stored' && o !== 'duplicate').length,
    };
  }
}
