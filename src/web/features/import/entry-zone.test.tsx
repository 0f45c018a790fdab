import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { journalCopy } from '../journal/copy';
import { EntryCard } from '../journal/EntryCard';
import { buildEntry, installJournalApi, renderJournal } from '../../test/journal';

beforeEach(() => {
  installJournalApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('an entry kept in its own time zone (an imported trip)', () => {
  it('shows its time in its zone, on its own day, and names the zone when it is not the account’s', () => {
    // 19:34 UTC on 3 March: 4 March, 5:34 AM in Brisbane; 1:34 PM on the 3rd in Chicago.
    const trip = buildEntry({ id: 'trip', entry_date: '2024-03-04', created_at: '2024-03-03T19:34:00.000Z', time_zone: 'Australia/Brisbane', content: 'South Bank at dawn' });
    const home = buildEntry({ id: 'home', entry_date: '2024-03-03', created_at: '2024-03-03T19:34:00.000Z', time_zone: 'America/Chicago', content: 'Back home' });
    const text = buildEntry({ id: 'text', entry_date: '2024-03-03', created_at: '2024-03-03T19:34:00.000Z', time_zone: null, content: 'A text' });
    renderJournal(
      <>
        <EntryCard timeZone="America/Chicago" entry={trip} />
        <EntryCard timeZone="America/Chicago" entry={home} />
        <EntryCard timeZone="America/Chicago" entry={text} />
      </>,
    );
    const [away, same, following] = screen.getAllByRole('article');
    expect(within(away!).getByRole('heading', { level: 2 })).toHaveTextContent('Monday, March 4, 2024');
    expect(within(away!).getByText('5:34 AM')).toHaveAttribute('datetime', '2024-03-03T19:34:00.000Z');
    expect(within(away!).getByText('Brisbane time')).toHaveAttribute('title', 'Australia/Brisbane');
    expect(away).not.toHaveTextContent(journalCopy.addedLater);
    // In the account's zone, or following it: no zone named.
    expect(same).toHaveTextContent('1:34 PM');
    expect(same).not.toHaveTextContent(' time');
    expect(following).toHaveTextContent('1:34 PM');
    expect(following).not.toHaveTextContent('Chicago');
  });
});
