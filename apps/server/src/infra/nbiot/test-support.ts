import { AppError } from '../../http/app-error.ts';

/** The result code of the AppError `fn` throws; a text saying what happened otherwise (for tests). */
export function resultCodeThrownBy(fn: () => unknown): number | string {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return 'no error';
}
