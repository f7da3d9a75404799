import { getStationCode } from '@uiot/contracts';
import { expireSession, holdForPasswordChange, session, setStationId } from '../lib/auth/index.ts';
import { loadChunk } from '../lib/chunks/load-chunk.ts';
import { recordError } from '../lib/error-log/error-log.ts';
import { installFeedbackSink, toastError } from '../lib/feedback/feedback.ts';
import { currentLang, i18n, loadNamespaces } from '../lib/i18n/i18n.ts';
import { lightFeedback } from '../lib/light/light-feedback.tsx';
import { call, configureRequests, isRequestError } from '../lib/request/index.ts';
import { loadRuntimeConfig } from '../lib/runtime-config/runtime-config.ts';
import { noteServerDate } from '../lib/server-clock.ts';
import { applyThemeVariables } from '../lib/settings/theme.ts';
import { reportFailure } from './report-failure.ts';

/**
 * The texts needed before the console loads: the login page, the request layer's error catalogue, the
 * loading screens and overlay, and the start-up failures. The console fetches the rest when it loads.
 */
export const START_NAMESPACES = ['common', 'auth', 'request', 'shell'] as const;

/** The station id is fetched once at start-up and kept as `sys.stationId` (spec §3, §7). */
async function fetchStationId(): Promise<void> {
  try {
    const stationId = await call(getStationCode, undefined, {
      noToken: true,
      noOverlay: true,
      silent: true,
      canCancel: false,
    });
    setStationId(stationId);
  } catch {
    const text = i18n.t('auth:stationIdFailed');
    toastError(text);
    recordError({ source: 'request', title: text, text });
  }
}

function recordScriptErrors(): void {
  window.addEventListener('error', (event) => {
    recordError({ source: 'script', title: event.message, text: event.message, detail: event.filename });
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (isRequestError(event.reason)) return; // already shown and recorded by the request layer
    const text = event.reason instanceof Error ? event.reason.message : String(event.reason);
    recordError({ source: 'script', title: text, text });
  });
}

let started: Promise<void> | null = null;

/** Loads `/config.json` and sets up the request layer; the console cannot run without them. */
export function startUp(): Promise<void> {
  started ??= runStartUp();
  return started;
}

async function runStartUp(): Promise<void> {
  applyThemeVariables();
  installFeedbackSink(lightFeedback);
  // Both before anything is shown: the start-up failure is a translated page too.
  const texts = loadChunk(() => loadNamespaces(START_NAMESPACES));
  const configLoaded = loadRuntimeConfig();
  await Promise.allSettled([texts, configLoaded]);
  await texts;
  const config = await configLoaded;
  configureRequests({
    baseUrl: config.service.url.replace(/\/+$/, ''),
    timeout: config.service.timeout,
    headers: ({ noToken }) => {
      const { token, stationId } = session.get();
      return {
        'Accept-Language': currentLang(),
        ...(stationId ? { 'X-Station-Id': stationId } : {}),
        ...(token && !noToken ? { Authorization: `Bearer ${token}` } : {}),
      };
    },
    onFailure: reportFailure,
    onSessionExpired: expireSession,
    onPasswordChangeRequired: holdForPasswordChange,
    onServerDate: noteServerDate,
  });
  recordScriptErrors();
  void fetchStationId();
}
