import { COMMAND_STATES, type CommandState, FINAL_COMMAND_STATES } from '@uiot/contracts';
import { COMMAND_OUTCOMES } from '@uiot/device-protocol';
import { describe, expect, it } from 'vitest';
import {
  afterOutcome,
  type CommandTiming,
  isFinal,
  mayRetransmit,
  nextStep,
  stateOfOutcome,
} from './command-state.ts';

const OPEN: CommandState[] = COMMAND_STATES.filter((s) => !FINAL_COMMAND_STATES.includes(s));

describe('command states', () => {
  it('ends in exactly the final states of the spec', () => {
    expect(COMMAND_STATES.filter(isFinal)).toEqual([
      'Success',
      'Failure',
      'NB_Failed',
      'NB_Successful',
      'NB_Expired',
      'NB_Timeout',
      'NB_Canceled',
    ]);
    expect(OPEN).toEqual(['Waitting', 'NB_Pending', 'NB_Send', 'NB_Delivered', 'NB_UnKnow']);
  });

  it.each([
    ['Success', 'Success'],
    ['Failure', 'Failure'],
    ['Sent', 'NB_Send'],
    ['Delivered', 'NB_Delivered'],
    ['NB_Pending', 'NB_Pending'],
    ['NB_Canceled', 'NB_Canceled'],
  ] as const)('reads the outcome %s as %s', (outcome, state) => {
    expect(stateOfOutcome(outcome)).toBe(state);
  });

  it('goes Waitting → Success on the native ack and Waitting → Failure on a refusal', () => {
    expect(afterOutcome('Waitting', 'Success')).toBe('Success');
    expect(afterOutcome('Waitting', 'Failure')).toBe('Failure');
  });

  it('follows ChirpStack: txack → NB_Send, ack → NB_Delivered, then the lock answers', () => {
    const sent = afterOutcome('Waitting', 'Sent');
    expect(sent).toBe('NB_Send');
    const delivered = afterOutcome(sent, 'Delivered');
    expect(delivered).toBe('NB_Delivered');
    expect(afterOutcome(delivered, 'Success')).toBe('Success');
  });

  it('follows an NB-IoT platform through its states to its own final ones', () => {
    let state: CommandState = 'Waitting';
    for (const step of ['NB_Pending', 'NB_Send', 'NB_Delivered'] as const) {
      state = afterOutcome(state, step);
      expect(state).toBe(step);
    }
    expect(afterOutcome(state, 'NB_Successful')).toBe('NB_Successful');
    expect(afterOutcome('NB_Send', 'NB_Failed')).toBe('NB_Failed');
    expect(afterOutcome('NB_Pending', 'NB_Timeout')).toBe('NB_Timeout');
    expect(afterOutcome('NB_Delivered', 'NB_Expired')).toBe('NB_Expired');
    expect(afterOutcome('NB_Pending', 'NB_Canceled')).toBe('NB_Canceled');
  });

  it('never moves an open command back (a late txack after the ack)', () => {
    expect(afterOutcome('NB_Delivered', 'Sent')).toBe('NB_Delivered');
    expect(afterOutcome('NB_Delivered', 'NB_Pending')).toBe('NB_Delivered');
    expect(afterOutcome('NB_Send', 'NB_Pending')).toBe('NB_Send');
  });

  it('learns nothing from NB_UnKnow', () => {
    expect(afterOutcome('Waitting', 'NB_UnKnow')).toBe('Waitting');
    expect(afterOutcome('NB_Send', 'NB_UnKnow')).toBe('NB_Send');
  });

  it('leaves every final state alone whatever comes later', () => {
    for (const final of FINAL_COMMAND_STATES) {
      for (const outcome of COMMAND_OUTCOMES) expect(afterOutcome(final, outcome)).toBe(final);
    }
  });

  it('sends again only while nobody confirmed the command reached the lock', () => {
    expect(OPEN.filter(mayRetransmit)).toEqual(['Waitting', 'NB_UnKnow']);
  });
});

describe('nextStep (retransmit and expiry on an injected clock)', () => {
  const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
  const INTERVAL = 30_000;
  const fresh: CommandTiming = {
    state: 'Waitting',
    attempts: 0,
    maxRetransmit: 2,
    lastSentAt: null,
    expireAt: T0 + 600_000,
  };

  it('sends a new command at once', () => {
    expect(nextStep(fresh, T0, INTERVAL)).toEqual({ do: 'send', retransmit: false });
  });

  it('waits one interval for an answer, then sends again, maxRetransmit times, then times out', () => {
    let command: CommandTiming = { ...fresh };
    let now = T0;
    const sends: number[] = [];
    for (;;) {
      const step = nextStep(command, now, INTERVAL);
      if (step.do === 'send') {
        sends.push(now - T0);
        command = { ...command, attempts: command.attempts + 1, lastSentAt: now };
      } else if (step.do === 'wait') {
        expect(step.until).toBeGreaterThan(now);
        now = step.until;
      } else {
        expect(step).toEqual({ do: 'end', state: 'NB_Timeout' });
        break;
      }
    }
    expect(sends).toEqual([0, 30_000, 60_000]);
    expect(now - T0).toBe(90_000);
  });

  it('waits exactly until the answer is due, not a moment less', () => {
    const sent = { ...fresh, attempts: 1, lastSentAt: T0 };
    expect(nextStep(sent, T0 + INTERVAL - 1, INTERVAL)).toEqual({ do: 'wait', until: T0 + INTERVAL });
    expect(nextStep(sent, T0 + INTERVAL, INTERVAL)).toEqual({ do: 'send', retransmit: true });
  });

  it('never sends again with maxRetransmit 0: one send, then NB_Timeout', () => {
    const once = { ...fresh, maxRetransmit: 0, attempts: 1, lastSentAt: T0 };
    expect(nextStep(once, T0 + INTERVAL, INTERVAL)).toEqual({ do: 'end', state: 'NB_Timeout' });
  });

  it('expires at its expiry time whatever it is waiting for, and says so before a retransmit', () => {
    const sent = { ...fresh, attempts: 1, lastSentAt: T0, expireAt: T0 + 45_000 };
    expect(nextStep(sent, T0 + 44_999, INTERVAL)).toEqual({ do: 'send', retransmit: true });
    expect(nextStep(sent, T0 + 45_000, INTERVAL)).toEqual({ do: 'end', state: 'NB_Expired' });
    const unsent = { ...fresh, expireAt: T0 };
    expect(nextStep(unsent, T0, INTERVAL)).toEqual({ do: 'end', state: 'NB_Expired' });
  });

  it('does not wait past the expiry time', () => {
    const sent = { ...fresh, attempts: 1, lastSentAt: T0, expireAt: T0 + 10_000 };
    expect(nextStep(sent, T0 + 1, INTERVAL)).toEqual({ do: 'wait', until: T0 + 10_000 });
  });

  it('does not send again what the network holds; it waits for the answer until expiry', () => {
    for (const state of ['NB_Pending', 'NB_Send', 'NB_Delivered'] as const) {
      const held = { ...fresh, state, attempts: 1, lastSentAt: T0 };
      expect(nextStep(held, T0 + 5 * INTERVAL, INTERVAL)).toEqual({ do: 'wait', until: fresh.expireAt });
      expect(nextStep(held, fresh.expireAt, INTERVAL)).toEqual({ do: 'end', state: 'NB_Expired' });
    }
  });

  it('does nothing more for a final command, even past its expiry', () => {
    for (const state of FINAL_COMMAND_STATES) {
      const done = { ...fresh, state, attempts: 1, lastSentAt: T0 };
      expect(nextStep(done, T0 + 10 * 600_000, INTERVAL)).toEqual({ do: 'nothing' });
    }
  });
});
