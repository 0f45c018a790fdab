import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENTRY_CONTENT_MAX } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { EntryCard } from './EntryCard';
import { JournalWorkspace } from './JournalWorkspace';
import { buildEntry, installJournalApi, json, page, renderJournal, type JournalApi } from '../../test/journal';

let api: JournalApi;
beforeEach(() => {
  api = installJournalApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('editing an entry that texts made longer than the limit', () => {
  // 19,201 characters, as a day of long texts made before texts started continuation entries.
  const oversized = buildEntry({ content: `${'word '.repeat(3_840)}end!` });

  async function openEditor() {
    api.on('PATCH /api/entries/entry-long', (request) => json(200, { ...oversized, ...request.json, tags: ['later'] }));
    renderJournal(<EntryCard entry={{ ...oversized, id: 'entry-long' }} />);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /^Edit entry/ }));
    return user;
  }

  it('can still be saved, e.g. to add a tag, and says why it is allowed', async () => {
    expect(oversized.content.length).toBeGreaterThan(ENTRY_CONTENT_MAX);
    const user = await openEditor();
    expect(screen.getByRole('textbox', { name: 'Entry' })).toHaveAccessibleDescription(
      expect.stringContaining(messages.journalPage.oversized('10,000')),
    );
    await user.type(screen.getByRole('textbox', { name: /^Tags/ }), 'later');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    await user.click(save);
    await waitFor(() => expect(api.to('PATCH /api/entries/entry-long')).toHaveLength(1));
    expect(api.to('PATCH /api/entries/entry-long')[0]!.json).toMatchObject({ content: oversized.content, tags: 'later' });
  });

  it('cannot be saved once it grows', async () => {
    const user = await openEditor();
    const text = screen.getByRole('textbox', { name: 'Entry' });
    await user.click(text);
    await user.keyboard('{End} more');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(text).toHaveAttribute('aria-invalid', 'true');
    await user.keyboard('{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('holds an ordinary entry to the limit', async () => {
    renderJournal(<EntryCard entry={buildEntry({ content: 'short' })} />);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /^Edit entry/ }));
    const text = screen.getByRole('textbox', { name: 'Entry' });
    await user.clear(text);
    await user.click(text);
    await user.paste('a'.repeat(ENTRY_CONTENT_MAX + 1));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByText(messages.entries.formContentTooLong)).toBeInTheDocument();
  });
});

describe('entry times', () => {
  it('shows the time in the profile’s timezone, not the browser’s', async () => {
    // 20:05 UTC is 10:05 AM the next morning on Kiritimati (UTC+14), whatever zone the browser is in.
    api.on('GET /api/profile', json(200, { timezone: 'Pacific/Kiritimati', is_opted_out: false, phone_number: '+12025550123' }));
    api.on('GET /api/entries', json(200, page([buildEntry({ entry_date: '2026-03-04', created_at: '2026-03-03T20:05:00.000Z' })])));
    renderJournal(<JournalWorkspace />);
    expect(await screen.findByText('10:05 AM')).toBeInTheDocument();
  });
});
