import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryRecording } from '../../../shared/journal';
import { buildEntry, failure, installJournalApi, json, page, renderJournal, type JournalApi } from '../../test/journal';
import { EntryCard } from '../journal/EntryCard';
import { emptyFilter } from '../journal/filters';
import { invalidateJournal, useEntries } from '../journal/queries';
import { voiceCopy } from './voice-copy';

const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));

function buildRecording(overrides: Partial<EntryRecording> = {}): EntryRecording {
  return {
    id: 'rec-1',
    url: '/media/recordings/rec-1.webm?sig=abc',
    mime_type: 'audio/webm',
    duration_seconds: 102,
    transcript: null,
    transcript_status: 'pending',
    ...overrides,
  };
}

/** The journal's list as the page reads it: a refetch (the live stream's) re-renders the cards. */
function LiveList() {
  const entries = useEntries(emptyFilter).data?.pages.flatMap((p) => p.entries) ?? [];
  return entries.map((entry) => <EntryCard key={entry.id} entry={entry} />);
}

let api: JournalApi;
beforeEach(() => {
  api = installJournalApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a voice note in an entry', () => {
  it('plays in a plain audio player named by its length', () => {
    renderJournal(<EntryCard entry={buildEntry({ recordings: [buildRecording({ duration_seconds: 102 }), buildRecording({ id: 'rec-2', duration_seconds: 7.4 })] })} />);
    const notes = within(screen.getByRole('list', { name: 'Voice notes' })).getAllByRole('listitem');
    expect(notes).toHaveLength(2);
    expect(notes[0]).toHaveTextContent('Voice note, 1:42');
    expect(notes[1]).toHaveTextContent('Voice note, 0:07');
    const audio = within(notes[0]!).getByLabelText('Voice note, 1:42');
    expect(audio.tagName).toBe('AUDIO');
    expect(audio).toHaveAttribute('controls');
    expect(audio).toHaveAttribute('preload', 'metadata');
    expect(audio).toHaveAttribute('src', '/media/recordings/rec-1.webm?sig=abc');
  });

  it('shows nothing of voice notes in an entry without any', () => {
    renderJournal(<EntryCard entry={buildEntry({ recordings: [] })} />);
    expect(screen.queryByRole('list', { name: 'Voice notes' })).not.toBeInTheDocument();
  });

  it('says it is transcribing, then shows the transcript when the journal is read again', async () => {
    const entry = buildEntry({ id: 'e1', recordings: [buildRecording()] });
    const transcribed = { ...entry, version: 2, recordings: [buildRecording({ transcript: 'Walked to the lake at dusk.', transcript_status: 'done' })] };
    api.on('GET /api/entries', json(200, page([entry])), json(200, page([transcribed])));
    const { queryClient } = renderJournal(<LiveList />);
    expect(await screen.findByText(voiceCopy.transcribing)).toBeInTheDocument();
    expect(screen.queryByText('Walked to the lake at dusk.')).not.toBeInTheDocument();

    // What the live stream does when the transcript lands.
    await invalidateJournal(queryClient);
    expect(await screen.findByText('Walked to the lake at dusk.')).toBeInTheDocument();
    expect(screen.queryByText(voiceCopy.transcribing)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: voiceCopy.transcribeAgain })).not.toBeInTheDocument();
  });

  it('offers Transcribe again when not transcribed, and shows it transcribing once asked', async () => {
    api.on('POST /api/entries/e1/recordings/rec-1/transcribe', json(202));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1', recordings: [buildRecording({ transcript_status: 'failed' })] })} />);
    expect(screen.getByText(voiceCopy.notTranscribed)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: voiceCopy.transcribeAgain }));

    expect(await screen.findByText(voiceCopy.transcribing)).toBeInTheDocument();
    expect(screen.queryByText(voiceCopy.notTranscribed)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: voiceCopy.transcribeAgain })).not.toBeInTheDocument();
    expect(api.to('POST /api/entries/e1/recordings/rec-1/transcribe')).toHaveLength(1);
  });

  it("shows the server's reason when it refuses to transcribe again", async () => {
    api.on('POST /api/entries/e1/recordings/rec-1/transcribe', failure(409, 'This voice note is already transcribed.', 'CONFLICT'));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1', recordings: [buildRecording({ transcript_status: 'failed' })] })} />);
    await userEvent.setup().click(screen.getByRole('button', { name: voiceCopy.transcribeAgain }));

    expect(await screen.findByRole('alert')).toHaveTextContent('This voice note is already transcribed.');
    expect(screen.getByText(voiceCopy.notTranscribed)).toBeInTheDocument();
  });

  it('deletes a voice note only once the dialog is confirmed', async () => {
    api.on('DELETE /api/entries/e1/recordings/rec-1', json(204));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1', recordings: [buildRecording()] })} />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Delete Voice note, 1:42' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(voiceCopy.deleteConfirm);
    await user.click(within(dialog).getByRole('button', { name: voiceCopy.cancel }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.to('DELETE /api/entries/e1/recordings/rec-1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Voice note, 1:42' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await toasts().findByText(voiceCopy.deleted)).toBeInTheDocument();
    expect(api.to('DELETE /api/entries/e1/recordings/rec-1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });
});
