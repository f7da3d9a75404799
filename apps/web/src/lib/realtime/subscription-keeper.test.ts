import { REALTIME_TIMING } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { ManualScheduler } from './manual-scheduler.ts';
import { SubscriptionKeeper } from './subscription-keeper.ts';

const TIMEOUT = REALTIME_TIMING.mqttSubscribeTimeoutMs;
const RETRY = REALTIME_TIMING.mqttResubscribeMs;

function setUp() {
  const scheduler = new ManualScheduler();
  const attempts: { at: number; done: (granted: boolean) => void }[] = [];
  const subscribed: number[] = [];
  const keeper = new SubscriptionKeeper({
    subscribe: (done) => attempts.push({ at: scheduler.now, done }),
    timeoutMs: TIMEOUT,
    retryMs: RETRY,
    scheduler,
    onSubscribed: () => subscribed.push(scheduler.now),
  });
  const answer = (index: number, granted: boolean) => attempts[index]?.done(granted);
  return { scheduler, attempts, subscribed, keeper, answer };
}

describe('SubscriptionKeeper', () => {
  it('subscribes at once and reports a granted subscription, with nothing left pending', () => {
    const { scheduler, attempts, subscribed, keeper, answer } = setUp();
    keeper.start();
    expect(attempts.map((a) => a.at)).toEqual([0]);
    scheduler.advance(40);
    answer(0, true);
    expect(subscribed).toEqual([40]);
    expect(scheduler.delays()).toEqual([]);
    scheduler.advance(TIMEOUT * 3);
    expect(attempts).toHaveLength(1);
  });

  it('retries a refused subscription after the resubscribe pause, until one is granted', () => {
    const { scheduler, attempts, subscribed, keeper, answer } = setUp();
    keeper.start();
    scheduler.advance(100);
    answer(0, false);
    expect(scheduler.delays()).toEqual([RETRY]);
    scheduler.advance(RETRY - 1);
    expect(attempts).toHaveLength(1);
    scheduler.advance(1);
    expect(attempts.map((a) => a.at)).toEqual([0, 100 + RETRY]);
    answer(1, false);
    scheduler.advance(RETRY);
    expect(attempts.map((a) => a.at)).toEqual([0, 100 + RETRY, 100 + 2 * RETRY]);
    answer(2, true);
    expect(subscribed).toEqual([100 + 2 * RETRY]);
  });

  it('counts an unanswered subscription as failed after the subscribe timeout', () => {
    const { scheduler, attempts, subscribed, keeper, answer } = setUp();
    keeper.start();
    scheduler.advance(TIMEOUT - 1);
    expect(attempts).toHaveLength(1);
    scheduler.advance(1 + RETRY);
    expect(attempts.map((a) => a.at)).toEqual([0, TIMEOUT + RETRY]);
    // the broker's late answer to the abandoned attempt changes nothing
    answer(0, true);
    expect(subscribed).toEqual([]);
    answer(1, true);
    expect(subscribed).toEqual([TIMEOUT + RETRY]);
  });

  it('ignores a second answer to the same attempt', () => {
    const { subscribed, keeper, answer, scheduler } = setUp();
    keeper.start();
    answer(0, true);
    answer(0, false);
    answer(0, true);
    expect(subscribed).toEqual([0]);
    expect(scheduler.delays()).toEqual([]);
  });

  it('stops retrying, and ignores answers, once the connection ended', () => {
    const { scheduler, attempts, subscribed, keeper, answer } = setUp();
    keeper.start();
    answer(0, false);
    keeper.stop();
    expect(scheduler.delays()).toEqual([]);
    scheduler.advance(TIMEOUT + RETRY);
    expect(attempts).toHaveLength(1);

    keeper.start();
    keeper.stop();
    answer(1, true);
    expect(subscribed).toEqual([]);
  });

  it('starts afresh on a new connection, abandoning the attempt of the previous one', () => {
    const { scheduler, attempts, subscribed, keeper, answer } = setUp();
    keeper.start();
    scheduler.advance(500);
    keeper.start();
    expect(attempts.map((a) => a.at)).toEqual([0, 500]);
    expect(scheduler.delays()).toEqual([TIMEOUT]);
    answer(0, true);
    expect(subscribed).toEqual([]);
    answer(1, true);
    expect(subscribed).toEqual([500]);
  });

  it('handles an answer given synchronously by the client', () => {
    const scheduler = new ManualScheduler();
    let calls = 0;
    const subscribed: number[] = [];
    const keeper = new SubscriptionKeeper({
      subscribe: (done) => done(++calls >= 2),
      timeoutMs: TIMEOUT,
      retryMs: RETRY,
      scheduler,
      onSubscribed: () => subscribed.push(scheduler.now),
    });
    keeper.start();
    expect(scheduler.delays()).toEqual([RETRY]);
    scheduler.advance(RETRY);
    expect(subscribed).toEqual([RETRY]);
    expect(scheduler.delays()).toEqual([]);
  });
});
