import { type Envelope, type Lang, ResultCode, translateResult } from '@uiot/contracts';

export function ok<T>(data: T, lang: Lang): Envelope<T> {
  return { success: true, data, code: ResultCode.Ok, message: translateResult(ResultCode.Ok, lang) ?? '' };
}

export function failure(
  code: number,
  lang: Lang,
  params?: Record<string, string | number>,
  data: unknown = null,
): Envelope<unknown> {
  return {
    success: false,
    data,
    code,
    message: translateResult(code, lang, params) ?? translateResult(ResultCode.Internal, lang) ?? '',
  };
}
