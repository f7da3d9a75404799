import {
  formatMessage,
  type Lang,
  type ProceededReplacement,
  REPLACEMENT_OWN_REASONS,
  REPLACEMENT_STEPS,
  type ReplacementOwnReason,
  type ReplacementRow,
  type ReplacementStep,
  resultMessages,
  type StepState,
} from '@uiot/contracts';
import type { IssuedCredential } from '../../iot/index.ts';

/**
 * How the one-click lock replacement (spec §4) is shown: "not executed" followed by the five steps, each
 * with its state and (failed or pending) its translated reason.
 */

export type StepStatus = 'wait' | 'process' | 'finish' | 'error';
export type ShownStep = 'NotExecuted' | ReplacementStep;

export interface ReplacementStepItem {
  step: ShownStep;
  state: StepState;
  /** antd Steps status. */
  status: StepStatus;
  reason: string | null;
  reasonParams: Record<string, string> | null;
  time: string | null;
}

const STATUS_OF: Record<StepState, StepStatus> = {
  NotExecuted: 'wait',
  Done: 'finish',
  Failed: 'error',
  Pending: 'process',
};

/**
 * The items of the procedure's Steps: "not executed" (finished once the procedure started) then each step
 * in the order of REPLACEMENT_STEPS with its recorded state (not executed when missing).
 */
export function replacementStepItems(procedure: ReplacementRow | null): ReplacementStepItem[] {
  const start: ReplacementStepItem = {
    step: 'NotExecuted',
    state: procedure ? 'Done' : 'NotExecuted',
    status: procedure ? 'finish' : 'process',
    reason: null,
    reasonParams: null,
    time: procedure?.createdAt ?? null,
  };
  const steps = REPLACEMENT_STEPS.map((step): ReplacementStepItem => {
    const row = procedure?.steps.find((candidate) => candidate.step === step);
    const state = row?.state ?? 'NotExecuted';
    return {
      step,
      state,
      status: STATUS_OF[state],
      reason: row?.reason ?? null,
      reasonParams: row?.reasonParams ?? null,
      time: row?.time ?? null,
    };
  });
  return [start, ...steps];
}

/** The index of the step at hand: the first one not done (the last once all are). */
export function currentStepIndex(items: readonly ReplacementStepItem[]): number {
  const index = items.findIndex((item) => item.state !== 'Done');
  return index === -1 ? items.length - 1 : index;
}

/** A procedure that is not complete: reopening the dialog resumes it. */
export const isUnfinished = (procedure: ReplacementRow | null): procedure is ReplacementRow =>
  Boolean(procedure && procedure.status !== 'Completed');

/** A failed step or one waiting for the device can be run again. */
export const canRetry = (procedure: ReplacementRow | null) =>
  procedure?.status === 'Failed' || procedure?.status === 'Pending';

/** Steps are left to run without a failure (e.g. the console closed between start and proceed). */
export const canContinue = (procedure: ReplacementRow | null) =>
  procedure?.status === 'NotExecuted' || procedure?.status === 'Running';

/**
 * A proceed answer taken apart: the procedure to show, and the replacement's credential when this call
 * issued it (re-registering), to show once in the credential dialog and then drop, never kept with the
 * procedure.
 */
export function takeProceeded({ credential, ...procedure }: ProceededReplacement): {
  procedure: ReplacementRow;
  issued: IssuedCredential | null;
} {
  const issued = credential
    ? { deviceName: procedure.replacementName, reason: 'register' as const, credential }
    : null;
  return { procedure, issued };
}

/**
 * Whether to remind that the replacement's credential was shown only when it was re-registered: from then
 * until the procedure completes, the lock must sign in with it to take the old password. A replacement
 * without a code has no credential.
 */
export const remindsCredential = (
  procedure: ReplacementRow | null,
): procedure is ReplacementRow & { replacementCode: string } =>
  Boolean(
    procedure?.replacementCode &&
      procedure.status !== 'Completed' &&
      procedure.steps.some((s) => s.step === 'ReRegister' && s.state === 'Done'),
  );

const isResultCodeName = (name: string): name is keyof typeof resultMessages =>
  Object.hasOwn(resultMessages, name);

/**
 * The translated reason of a step: a result-code name in the language of the console, or one of the
 * console's own reasons (`REPLACEMENT_OWN_REASONS`) through `own` (its `replacement.reason.<key>` text
 * of the ledger namespace); otherwise the reason as sent.
 */
export function reasonText(
  reason: string | null,
  params: Record<string, string> | null,
  lang: Lang,
  own: (key: ReplacementOwnReason, params: Record<string, string>) => string,
): string | null {
  if (!reason) return null;
  if (isResultCodeName(reason)) return formatMessage(resultMessages[reason][lang], params ?? {});
  if ((REPLACEMENT_OWN_REASONS as readonly string[]).includes(reason)) {
    return own(reason as ReplacementOwnReason, params ?? {});
  }
  return reason;
}

/** The parameters of an own reason as shown: a command state (`state`) reads as the command records name it. */
export function shownReasonParams(
  params: Record<string, string>,
  commandStateLabel: (state: string) => string,
): Record<string, string> {
  return params.state === undefined ? params : { ...params, state: commandStateLabel(params.state) };
}
