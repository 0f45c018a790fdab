import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalEventBus, type UserEvent } from '../events';
import { EventHistory, REPLAY_WINDOW_MS } from './history';

const changed = (entryId: string): UserEvent => ({ type: 'entries.changed', entryId });
const EVERYTHING = [{ type: 'entries.changed' }, { type: 'profile.updated' }];

describe('EventHistory: what a reconnecting stream missed', () => {
  afterEach(() => vi.useRealTimers());

  /** A history on a local bus with a clock the test moves; `heard` collects what a stream gets. */
  function setUp() {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const bus = createLocalEventBus();
    let now = Date.parse('2026-11-23T17:00:00Z');
    const history = new EventHistory(bus, () => now);
    const open = (lastEventId?: string) => {
      const heard: Array<{ event: UserEvent; id: string }> = [];
      const stop = history.follow('u1', lastEventId, (event, id) => heard.push({ event, id }));
      return { heard, stop, opening: history.latestId() };
    };
    return { bus, history, open, pass: (ms: number) => ((now += ms), vi.advanceTimersByTime(ms)) };
  }

  it('replays exactly the events published while the stream was away, in order', () => {
    const { bus, open } = setUp();
    const first = open();
    bus.publish('u1', changed('a'));
    first.stop();
    bus.publish('u1', changed('b'));
    bus.publish('u1', { type: 'profile.updated', phone_verified: true });
    const again = open(first.heard[0]!.id);
    expect(again.heard.map((h) => h.event)).toEqual([changed('b'), { type: 'profile.updated', phone_verified: true }]);
    // And the opening id of a stream that heard nothing yet works the same.
    const quiet = open();
    quiet.stop();
    bus.publish('u1', changed('c'));
    expect(open(quiet.opening).heard.map((h) => h.event)).toEqual([changed('c')]);
  });

  it('says everything changed for an id it cannot answer: another instance, or further back than kept', () => {
    const { bus, open, pass } = setUp();
    expect(open('another-instance:7').heard.map((h) => h.event)).toEqual(EVERYTHING);
    const otherTab = open(); // keeps the user followed throughout
    const first = open();
    first.stop();
    bus.publish('u1', changed('old'));
    pass(REPLAY_WINDOW_MS + 1);
    bus.publish('u1', changed('new'));
    expect(open(first.opening).heard.map((h) => h.event)).toEqual(EVERYTHING);
    // Within the window, the same is replayed exactly.
    expect(open(otherTab.heard[0]!.id).heard.map((h) => h.event)).toEqual([changed('new')]);
  });

  it('never takes an id from before the user was last let go for heard', () => {
    const { bus, open, pass } = setUp();
    const first = open();
    first.stop();
    pass(REPLAY_WINDOW_MS); // nobody follows the user any more
    bus.publish('u1', changed('unheard'));
    expect(open(first.opening).heard.map((h) => h.event)).toEqual(EVERYTHING);
  });
});
