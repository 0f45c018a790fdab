import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { OnThisDay } from './OnThisDay';
import { buildEntry, failure, installJournalApi, json, renderJournal, type JournalApi } from '../../test/journal';

let api: JournalApi;
beforeEach(() => {
  api = installJournalApi();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-05-09T15:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the On This Day card', () => {
  it('lists earlier years’ entries with how long ago, and opens each one', async () => {
    api.on(
      'GET /api/on-this-day',
      json(200, {
        entries: [
          buildEntry({ id: 'a', entry_date: '2025-05-09', title: 'Picnic by the lake', content: 'Sandwiches and sun.' }),
          buildEntry({ id: 'b', entry_date: '2023-05-09', content: 'First line of an untitled entry\nand a second line' }),
        ],
      }),
    );
    renderJournal(<OnThisDay />);
    const card = await screen.findByRole('region', { name: messages.onThisDay.title });
    const items = within(card).getAllByRole('button');
    expect(items.map((b) => b.textContent)).toEqual(['1 year agoPicnic by the lake', '3 years agoFirst line of an untitled entry']);

    const user = userEvent.setup();
    await user.click(items[1]!);
    const dialog = await screen.findByRole('dialog', { name: 'On this day, 3 years ago' });
    expect(within(dialog).getByText(/and a second line/)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(items[1]).toHaveFocus());
  });

  it('shows nothing when there is nothing from this day, or the entries cannot be read', async () => {
    api.on('GET /api/on-this-day', json(200, { entries: [] }));
    const empty = renderJournal(<OnThisDay />);
    await waitFor(() => expect(api.to('GET /api/on-this-day')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: messages.onThisDay.title })).not.toBeInTheDocument();
    empty.unmount();

    api.on('GET /api/on-this-day', failure(402, 'Subscription required'));
    renderJournal(<OnThisDay />);
    await waitFor(() => expect(api.to('GET /api/on-this-day')).toHaveLength(2));
    expect(screen.queryByRole('region', { name: messages.onThisDay.title })).not.toBeInTheDocument();
  });
});
