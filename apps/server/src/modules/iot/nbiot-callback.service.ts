import { ResultCode } from '@uiot/contracts';
import { decodeNbCallback, MAX_CALLBACK_BODY_BYTES, type NbPlatform } from '@uiot/device-protocol';
import { AppError } from '../../http/app-error.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import type { IngestPipeline } from './ingest/ingest-pipeline.ts';

export type NbCallbackSecrets = Partial<Record<NbPlatform, string>>;

/**
 * The NB-IoT platforms' HTTP callbacks: the platform's shared secret is checked on every call, the body
 * decoded (reports and command states, possibly several at once) and every message ingested. The answer
 * comes once all are committed, so a platform that retries on failure never loses one.
 */
export class NbCallbackService {
  constructor(
    private readonly ingest: IngestPipeline,
    private readonly secrets: NbCallbackSecrets,
    private readonly now: () => number = Date.now,
  ) {}

  async receive(
    platform: NbPlatform,
    token: string | undefined,
    body: unknown,
    rawBody: string,
  ): Promise<{ accepted: number; duplicates: number; refused: number }> {
    const secret = this.secrets[platform];
    // An unconfigured platform is closed: nothing it sends is trusted.
    if (!secret) throw new AppError(ResultCode.NotFound);
    if (!token || !sameSecret(token, secret)) throw new AppError(ResultCode.Forbidden);
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
