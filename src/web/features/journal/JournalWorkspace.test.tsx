import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { journalCopy } from './copy';
import { JournalWorkspace } from './JournalWorkspace';
import { buildEntry, failure, installJournalApi, json, page, pending, renderJournal, stats, type JournalApi } from '../../test/journal';
import { CHECKOUT_SESSION_STORAGE_KEY } from './useCheckoutReturn';

const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));

/** EventSource is not in the test DOM; this one is driven by the test. */
class FakeEventSource {
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = 1;
  private listeners = new Map<string, Array<() => void>>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

let api: JournalApi;
beforeEach(() => {
  api = installJournalApi();
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('journal states', () => {
  it('says it is loading', () => {
    api.on('GET /api/entries', pending);
    renderJournal(<JournalWorkspace />);
    expect(screen.getAllByText(journalCopy.loading).length).toBeGreaterThan(0);
  });

  it('says when the entries cannot be loaded, and tries again', async () => {
    api.on('GET /api/entries', failure(503, 'Unavailable'), failure(503, 'Unavailable'), failure(503, 'Unavailable'), json(200, page([buildEntry({ content: 'Back again' })])));
    renderJournal(<JournalWorkspace />);
    expect(await screen.findByText(journalCopy.loadErrorTitle)).toBeInTheDocument();
    expect(screen.getByText(journalCopy.loadError)).toBeInTheDocument();
    // The read was retried twice before giving up (spec 9).
    expect(api.to('GET /api/entries')).toHaveLength(3);

    await userEvent.setup().click(screen.getByRole('button', { name: journalCopy.retry }));
    expect(await screen.findByText('Back again')).toBeInTheDocument();
  });

  it('welcomes a new journal and opens the new-entry modal from there', async () => {
    api.on('GET /api/entries', json(200, page([])));
    api.on('GET /api/stats', json(200, stats({ total_days: 0 })));
    renderJournal(<JournalWorkspace />);
    await userEvent.setup().click(await screen.findByRole('button', { name: journalCopy.createFirst }));
    expect(await screen.findByRole('dialog', { name: 'New entry' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Journal statistics' })).not.toBeInTheDocument();
  });

  it('says when nothing matches the search, and clears it', async () => {
    api.on('GET /api/entries', (request) => json(200, page(request.params.get('q') ? [] : [buildEntry({ content: 'All of it' })])));
    const app = renderJournal(<JournalWorkspace />, { at: '/journal?q=zebra' });
    expect(await screen.findByText(journalCopy.noMatchesTitle)).toBeInTheDocument();
    expect(screen.getByText(journalCopy.noMatches)).toBeInTheDocument();

    await userEvent.setup().click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(await screen.findByText('All of it')).toBeInTheDocument();
    expect(app.address()).toBe('/journal');
    expect(screen.getByRole('searchbox', { name: 'Search entries' })).toHaveValue('');
  });

  it('says From must be on or before To for reversed dates, instead of that nothing matches', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry({ content: 'All of it' })])));
    const app = renderJournal(<JournalWorkspace />, { at: '/journal?from=2026-03-10&to=2026-03-01' });
    expect(await screen.findByRole('alert')).toHaveTextContent(journalCopy.reversedDates);
    expect(screen.queryByText(journalCopy.noMatchesTitle)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(await screen.findByText('All of it')).toBeInTheDocument();
    expect(app.address()).toBe('/journal');
  });

  it('says a day that does not exist is not a real one, not that the connection failed', async () => {
    const message = 'There is no day 2026-02-30: dates must be real days, written YYYY-MM-DD';
    api.on('GET /api/entries', (request) => (request.params.get('from') ? failure(400, message, 'INVALID_INPUT') : json(200, page([]))));
    renderJournal(<JournalWorkspace />, { at: '/journal?from=2026-02-30' });
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByText(journalCopy.loadError)).not.toBeInTheDocument();
  });

  it('lists entries newest first with statistics above them', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry({ content: 'Newest' }), buildEntry({ content: 'Older', entry_date: '2026-03-02' })])));
    api.on('GET /api/stats', json(200, stats({ current_streak: 5, total_days: 40, total_photos: 7, total_words: 12345 })));
    renderJournal(<JournalWorkspace />);
    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => within(c).getByText(/Newest|Older/).textContent)).toEqual(['Newest', 'Older']);
    const statsRow = await screen.findByRole('region', { name: 'Journal statistics' });
    expect(statsRow).toHaveTextContent('5 days');
    expect(statsRow).toHaveTextContent('40');
    expect(statsRow).toHaveTextContent('12,345');
  });

  it('keeps the server’s order by entry date: a text added to yesterday shows under today, on its own day', async () => {
    const today = buildEntry({ content: 'Today', entry_date: '2026-03-04', created_at: '2026-03-04T14:00:00.000Z' });
    const yesterday = buildEntry({ content: 'Yesterday, added this evening', entry_date: '2026-03-03', created_at: '2026-03-04T23:00:00.000Z' });
    api.on('GET /api/entries', json(200, page([today, yesterday])));
    renderJournal(<JournalWorkspace />);
    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => within(c).getByRole('heading', { level: 2 }).textContent)).toEqual(['Wednesday, March 4, 2026', 'Tuesday, March 3, 2026']);
    expect(cards[1]).toHaveTextContent(journalCopy.addedLater);
  });

  it('holds the statistics row’s place while the figures load, so the list below does not jump', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry({ content: 'Newest' })])));
    api.on('GET /api/stats', pending);
    renderJournal(<JournalWorkspace />);
    await screen.findAllByRole('article');
    const placeholder = await screen.findByRole('region', { name: 'Loading journal statistics' });
    expect(placeholder).toHaveAttribute('aria-busy', 'true');
    expect(within(placeholder).getAllByRole('term').map((term) => term.textContent)).toEqual(['Current streak', 'Total days', 'Photos', 'Words']);
  });

  const twoPages = (request: { params: URLSearchParams }) =>
    request.params.get('cursor') === 'c1' ? json(200, page([buildEntry({ content: 'Page two' })])) : json(200, page([buildEntry({ content: 'Page one' })], 'c1'));

  it('loads the next page with the cursor from the Load more button', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    api.on('GET /api/entries', twoPages);
    renderJournal(<JournalWorkspace />);
    await screen.findByText('Page one');
    const loadMore = screen.getByRole('button', { name: journalCopy.loadMore });
    loadMore.focus();
    await userEvent.setup().keyboard('{Enter}');
    expect(await screen.findByText('Page two')).toBeInTheDocument();
    expect(api.to('GET /api/entries').at(-1)!.params.get('cursor')).toBe('c1');
    expect(screen.queryByRole('button', { name: journalCopy.loadMore })).not.toBeInTheDocument();
  });

  it('loads the next page by itself when the end of the list scrolls into view', async () => {
    let reveal: () => void = () => undefined;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
          reveal = () => callback([{ isIntersecting: true }]);
        }
        observe() {}
        disconnect() {}
      },
    );
    api.on('GET /api/entries', twoPages);
    renderJournal(<JournalWorkspace />);
    await screen.findByText('Page one');
    act(() => reveal());
    expect(await screen.findByText('Page two')).toBeInTheDocument();
  });

  it('opens the new-entry modal from the floating button', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry()])));
    renderJournal(<JournalWorkspace />);
    await userEvent.setup().click(screen.getByRole('button', { name: journalCopy.newEntry }));
    expect(await screen.findByRole('dialog', { name: 'New entry' })).toBeInTheDocument();
  });

  it('opens the export modal when the page asks', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry()])));
    const onExportOpenChange = vi.fn();
    renderJournal(<JournalWorkspace exportOpen onExportOpenChange={onExportOpenChange} />);
    const dialog = await screen.findByRole('dialog', { name: 'Export your journal' });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onExportOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('search and filters', () => {
  it('searches with the filters in the address', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry()])));
    renderJournal(<JournalWorkspace />, { at: '/journal?q=river&from=2026-01-01&to=2026-01-31&tags=birds,walks&source=sms&hasPhotos=true' });
    await waitFor(() => expect(api.to('GET /api/entries')).toHaveLength(1));
    expect(api.to('GET /api/entries')[0]!.params.toString()).toBe('q=river&from=2026-01-01&to=2026-01-31&tags=birds%2Cwalks&source=sms&hasPhotos=true');
    expect(screen.getByRole('searchbox', { name: 'Search entries' })).toHaveValue('river');
    expect(screen.getByRole('radio', { name: 'SMS' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Has photos' })).toBeChecked();
  });

  it('waits for typing to pause, then searches and keeps the words in the address', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry()])));
    const app = renderJournal(<JournalWorkspace />);
    await screen.findByRole('article');
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search entries' }), 'heron');
    await waitFor(() => expect(app.address()).toBe('/journal?q=heron'));
    await waitFor(() => expect(api.to('GET /api/entries').at(-1)!.params.get('q')).toBe('heron'));
    // One search for the word, not one per keystroke.
    expect(api.to('GET /api/entries').filter((r) => r.params.has('q'))).toHaveLength(1);
  });

  it('filters by source and photos, and clears everything', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry()])));
    const app = renderJournal(<JournalWorkspace />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Filters/ }));
    await user.click(screen.getByRole('radio', { name: 'Web' }));
    await user.click(screen.getByRole('checkbox', { name: 'Has photos' }));
    await waitFor(() => expect(app.address()).toBe('/journal?source=web&hasPhotos=true'));
    await waitFor(() => expect(api.to('GET /api/entries').at(-1)!.params.toString()).toBe('source=web&hasPhotos=true'));

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(app.address()).toBe('/journal');
  });

  it('filters the entries that hold a voice note', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry()])));
    const app = renderJournal(<JournalWorkspace />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Filters/ }));
    await user.click(screen.getByRole('radio', { name: 'Voice' }));
    await waitFor(() => expect(app.address()).toBe('/journal?source=voice'));
    await waitFor(() => expect(api.to('GET /api/entries').at(-1)!.params.toString()).toBe('source=voice'));
  });
});

describe('banners', () => {
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  it('shows the trial with the days left and an upgrade link', async () => {
    api.on('GET /api/subscription', json(200, { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: inDays(2.5) }));
    renderJournal(<JournalWorkspace />);
    const banner = await screen.findByRole('region', { name: 'Subscription' });
    expect(banner).toHaveTextContent(journalCopy.trialActive);
    expect(banner).toHaveTextContent('3 days remaining');
    expect(within(banner).getByRole('link', { name: journalCopy.upgradeNow })).toHaveAttribute('href', '/subscribe');
  });

  it('says the trial expired when there is neither trial nor subscription', async () => {
    api.on('GET /api/subscription', json(200, { subscribed: false, subscription_tier: null, subscription_end: null, is_trial: true, trial_end: inDays(-1) }));
    renderJournal(<JournalWorkspace />);
    expect(await screen.findByRole('region', { name: 'Subscription' })).toHaveTextContent(journalCopy.trialExpired);
  });

  it('shows nothing to a subscriber, or while the endpoint does not exist', async () => {
    api.on('GET /api/subscription', json(200, { subscribed: true, subscription_tier: 'monthly', subscription_end: inDays(20), is_trial: false, trial_end: null }));
    renderJournal(<JournalWorkspace />);
    await waitFor(() => expect(api.to('GET /api/subscription')).toHaveLength(1));
    await waitFor(() => expect(api.to('GET /api/profile')).toHaveLength(1)); // 404 by default
    expect(screen.queryByRole('region', { name: 'Subscription' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Text messages' })).not.toBeInTheDocument();
  });

  it('tells an opted-out user their texts are off (STOP), not paused (PAUSE), and how to turn them back on', async () => {
    api.on('GET /api/profile', json(200, { is_opted_out: true }));
    renderJournal(<JournalWorkspace />);
    const banner = await screen.findByRole('region', { name: 'Text messages' });
    expect(banner).toHaveTextContent('Text messages are off');
    expect(banner).toHaveTextContent('text START to your journal number');
    expect(banner.textContent).not.toMatch(/paused/i);
  });
});

describe('checkout return', () => {
  it('welcomes a new subscriber and resets the address', async () => {
    localStorage.setItem(CHECKOUT_SESSION_STORAGE_KEY, 'cs_1');
    const app = renderJournal(<JournalWorkspace />, { at: '/journal?success=true&session_id=cs_1' });
    expect(await toasts().findByText(journalCopy.checkoutSuccessTitle)).toBeInTheDocument();
    expect(toasts().getByText('Welcome to Jotline! Your subscription is now active.')).toBeInTheDocument();
    expect(app.address()).toBe('/journal');
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
  });

  it('says a canceled checkout changed nothing', async () => {
    const app = renderJournal(<JournalWorkspace />, { at: '/journal?canceled=true' });
    expect(await toasts().findByText(journalCopy.checkoutCanceledTitle)).toBeInTheDocument();
    expect(toasts().getByText(journalCopy.checkoutCanceled)).toBeInTheDocument();
    expect(app.address()).toBe('/journal');
  });
});

describe('live updates', () => {
  it('listens with a stream ticket and refetches entries and statistics shortly after a change', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry()])));
    api.on('GET /api/stats', json(200, stats()));
    api.on('POST /api/events/ticket', json(200, { ticket: 'ticket-1' }));
    renderJournal(<JournalWorkspace />);
    await screen.findByRole('article');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const [stream] = FakeEventSource.instances;
    expect(stream!.url).toBe('/api/events?ticket=ticket-1');
    const entriesBefore = api.to('GET /api/entries').length;
    const statsBefore = api.to('GET /api/stats').length;

    act(() => {
      stream!.emit('entries.changed');
      stream!.emit('entries.changed');
      stream!.emit('entries.changed');
    });
    await waitFor(() => expect(api.to('GET /api/entries')).toHaveLength(entriesBefore + 1));
    await waitFor(() => expect(api.to('GET /api/stats')).toHaveLength(statsBefore + 1));
  });

  it('shows the opted-out banner as soon as the user texts STOP, without a reload', async () => {
    api.on('GET /api/profile', json(200, { is_opted_out: false }), json(200, { is_opted_out: true }));
    api.on('POST /api/events/ticket', json(200, { ticket: 'ticket-1' }));
    renderJournal(<JournalWorkspace />);
    await waitFor(() => expect(api.to('GET /api/profile')).toHaveLength(1));
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Text messages' })).not.toBeInTheDocument();

    act(() => FakeEventSource.instances[0]!.emit('profile.updated'));
    expect(await screen.findByRole('region', { name: 'Text messages' })).toHaveTextContent(journalCopy.optedOutTitle);
  });

  it('shows it too while entries are listed (the cards read the profile’s zone without breaking its refetch)', async () => {
    api.on('GET /api/entries', json(200, page([buildEntry({ content: 'A day' })])));
    api.on('GET /api/profile', json(200, { is_opted_out: false, timezone: 'America/Chicago' }), json(200, { is_opted_out: true, timezone: 'America/Chicago' }));
    api.on('POST /api/events/ticket', json(200, { ticket: 'ticket-1' }));
    renderJournal(<JournalWorkspace />);
    await screen.findByRole('article');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.instances[0]!.emit('profile.updated'));
    expect(await screen.findByRole('region', { name: 'Text messages' })).toHaveTextContent(journalCopy.optedOutTitle);
  });
});
