import { afterEach, beforeEach } from 'vitest';
import { installFeedbackSink } from '../feedback/feedback.ts';

/**
 * The toasts a test's page shows, as `kind: text` (e.g. `success: Audited successfully`): call once in a
 * test file; the list starts empty for each test.
 */
export function recordToasts(): readonly string[] {
  const toasts: string[] = [];
  let uninstall = () => {};
  beforeEach(() => {
    toasts.length = 0;
    uninstall = installFeedbackSink({
      toast: (kind, text) => toasts.push(`${kind}: ${text}`),
      notify: () => {},
    });
  });
  afterEach(() => uninstall());
  return toasts;
}
