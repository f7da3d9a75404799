import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../lib/light/spinner.tsx';
import { cancelAllRequests, usePendingRequests } from '../lib/request/index.ts';

/** Spec §9: the loading overlay appears after 3 s of pending calls; it offers to cancel them after 5 s. */
export const OVERLAY_DELAY_MS = 3000;
export const OVERLAY_CANCEL_MS = 5000;

type Phase = 'hidden' | 'waiting' | 'cancellable';

export function RequestOverlay() {
  const { t } = useTranslation('shell');
  const { since } = usePendingRequests();
  const [phase, setPhase] = useState<Phase>('hidden');

  useEffect(() => {
    setPhase('hidden');
    if (since === null) return;
    const elapsed = Date.now() - since;
    const timers = [
      setTimeout(() => setPhase('waiting'), Math.max(0, OVERLAY_DELAY_MS - elapsed)),
      setTimeout(() => setPhase('cancellable'), Math.max(0, OVERLAY_CANCEL_MS - elapsed)),
    ];
    return () => timers.forEach(clearTimeout);
  }, [since]);

  if (phase === 'hidden' || since === null) return null;
  return (
    <div className="uiot-overlay" role="alert" aria-busy="true" data-testid="request-overlay">
      <Spinner text={t('overlay.loading')} />
      {phase === 'cancellable' && (
        <button
          type="button"
          className="uiot-button"
          onClick={() => cancelAllRequests({ force: true, reason: 'user' })}
          data-testid="request-overlay-cancel"
        >
          {t('overlay.cancel')}
        </button>
      )}
    </div>
  );
}
