import { COMMAND_STATES, FINAL_COMMAND_STATES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { resultOfCommand } from './operation.service.ts';

describe('resultOfCommand: the record of a remote operation follows its command', () => {
  it('stays sent while the command is under way', () => {
    for (const state of COMMAND_STATES.filter((s) => !FINAL_COMMAND_STATES.includes(s))) {
      expect(resultOfCommand(state), state).toBeNull();
    }
  });

  it('succeeds when the lock or the NB-IoT platform says it was done', () => {
    expect(resultOfCommand('Success')).toBe('succeeded');
    expect(resultOfCommand('NB_Successful')).toBe('succeeded');
  });

  it('fails on every other final state', () => {
    for (const state of ['Failure', 'NB_Failed', 'NB_Expired', 'NB_Timeout', 'NB_Canceled'] as const) {
      expect(resultOfCommand(state), state).toBe('failed');
    }
  });
});
