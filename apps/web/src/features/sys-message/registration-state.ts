import type { SysMessageRow } from '@uiot/contracts';

export type RegistrationState = 'pending' | 'approved' | 'rejected';

/** A registration waits (not operated) or was approved or rejected. */
export function registrationState(row: Pick<SysMessageRow, 'operated' | 'result'>): RegistrationState {
  if (row.operated === 0 || !row.result) return 'pending';
  return row.result;
}

export const REGISTRATION_STATE_COLOR: Record<RegistrationState, string> = {
  pending: 'gold',
  approved: 'success',
  rejected: 'error',
};
