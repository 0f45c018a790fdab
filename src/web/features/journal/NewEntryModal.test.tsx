import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { photosTooLargeMessage } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { journalCopy } from './copy';
import { NewEntryModal } from './NewEntryModal';
import { buildEntry, failure, installJournalApi, json, pending, photoFile, renderJournal, type JournalApi } from '../../test/journal';

const MB = 1024 * 1024;
const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p>{open ? 'modal open' : 'modal closed'}</p>
      <NewEntryModal open={open} onOpenChange={setOpen} />
    </>
  );
}

/** Writes one entry, then opens the dialog again for the next. */
function WriteAnother() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Write another
      </button>
      <NewEntryModal open={open} onOpenChange={setOpen} />
    </>
  );
}

let api: JournalApi;
beforeEach(() => {
  api = installJournalApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function setup() {
  renderJournal(<Harness />);
  const user = userEvent.setup();
  const dialog = await screen.findByRole('dialog', { name: 'New entry' });
  return { user, dialog, text: within(dialog).getByLabelText('Your entry'), save: () => within(dialog).getByRole('button', { name: /Save|Saving/ }) };
}

describe('new-entry modal', () => {
  it('clears the "Entry created" toast when the next entry is opened, so it never lies over the dialog', async () => {
    api.on('POST /api/entries', json(201, buildEntry()));
    renderJournal(<WriteAnother />);
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New entry' });
    await user.type(within(dialog).getByLabelText('Your entry'), 'First');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await toasts().findByText(journalCopy.createdTitle)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Write another' }));
    expect(await screen.findByRole('dialog', { name: 'New entry' })).toBeInTheDocument();
    await waitFor(() => expect(toasts().queryByText(journalCopy.createdTitle)).not.toBeInTheDocument());
  });

  it('saves once on a double click, with one Idempotency-Key for the dialog', async () => {
    api.on('POST /api/entries', pending);
    const { user, text, save } = await setup();
    await user.type(text, 'Once.');
    await user.dblClick(save());
    expect(save()).toBeDisabled();
    expect(save()).toHaveTextContent(journalCopy.saving);
    const posts = api.to('POST /api/entries');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends the same Idempotency-Key when a failed save is tried again', async () => {
    api.on('POST /api/entries', failure(503, messages.generic.unavailable), json(201, buildEntry()));
    const { user, text, save } = await setup();
    await user.type(text, 'Retry me.');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(journalCopy.saveFailed);
    await user.click(save());
    await waitFor(() => expect(screen.getByText('modal closed')).toBeInTheDocument());
    const [first, second] = api.to('POST /api/entries');
    expect(second!.headers['Idempotency-Key']).toBe(first!.headers['Idempotency-Key']);
  });

  it('asks before Escape throws away a written entry, and closes at once when nothing is written', async () => {
    const { user, text } = await setup();
    await user.type(text, 'Half a thought');
    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('alertdialog', { name: journalCopy.discardTitle });
    await user.click(within(ask).getByRole('button', { name: journalCopy.keepWriting }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('Your entry')).toHaveValue('Half a thought');
    expect(screen.getByText('modal open')).toBeInTheDocument();

    await user.click(within(screen.getByRole('dialog', { name: 'New entry' })).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: journalCopy.discard }));
    await waitFor(() => expect(screen.getByText('modal closed')).toBeInTheDocument());
    expect(api.requests).toHaveLength(0);
  });

  it('closes on Escape without asking when nothing is written', async () => {
    const { user } = await setup();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByText('modal closed')).toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('counts an emoji as 2, as the limit does, and says so', async () => {
    const { user, text } = await setup();
    await user.click(text);
    await user.paste('Too much pie');
    expect(screen.getByText('12 / 10,000')).not.toHaveTextContent(journalCopy.emojiCountDouble);
    await user.paste(' 🥧');
    expect(screen.getByText(/^15 \/ 10,000/)).toHaveTextContent(journalCopy.emojiCountDouble);
  });

  it('counts characters and turns the counter orange above 9,000', async () => {
    const { user, text } = await setup();
    expect(screen.getByText('0 / 10,000')).not.toHaveClass('text-orange-600');
    await user.click(text);
    await user.paste('x'.repeat(9000));
    expect(screen.getByText('9,000 / 10,000')).not.toHaveClass('text-orange-600');
    await user.paste('x');
    expect(screen.getByText('9,001 / 10,000')).toHaveClass('text-orange-600');
  });

  it('disables Save when empty, blank or over 10,000 characters', async () => {
    const { user, text, save } = await setup();
    expect(save()).toBeDisabled();
    await user.type(text, '   ');
    expect(save()).toBeDisabled();
    await user.type(text, 'Hello');
    expect(save()).toBeEnabled();
    await user.clear(text);
    await user.paste('x'.repeat(10_001));
    expect(save()).toBeDisabled();
    expect(screen.getByText(messages.entries.formContentTooLong)).toBeInTheDocument();
  });

  it('allows saving photos without text', async () => {
    const { user, save } = await setup();
    await user.upload(screen.getByLabelText('Add photos'), photoFile('beach.jpg', 2 * MB));
    expect(save()).toBeEnabled();
    expect(screen.getByRole('img', { name: 'beach.jpg' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove beach.jpg' }));
    expect(save()).toBeDisabled();
  });

  it('shows Saving... while saving, then closes and says the entry was created', async () => {
    let answer: (value: ReturnType<typeof json>) => void = () => undefined;
    api.on('POST /api/entries', () => new Promise((resolve) => (answer = resolve)));
    const { user, text, save } = await setup();
    await user.type(text, 'A quiet morning');
    await user.type(screen.getByLabelText(/^Title/), 'Sunday');
    await user.type(screen.getByLabelText(/^Tags/), 'calm, coffee');
    await user.click(save());

    expect(save()).toHaveTextContent(journalCopy.saving);
    expect(save()).toBeDisabled();
    expect(api.to('POST /api/entries')[0]!.json).toEqual({ content: 'A quiet morning', title: 'Sunday', tags: 'calm, coffee' });
    answer(json(201, buildEntry()));

    expect(await toasts().findByText(journalCopy.createdTitle)).toBeInTheDocument();
    expect(toasts().getByText(journalCopy.created)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('modal closed')).toBeInTheDocument();
  });

  it('stays open with the alert and the text when saving fails', async () => {
    api.on('POST /api/entries', failure(500, 'Something went wrong on our side. Please try again.'));
    const { user, text, save, dialog } = await setup();
    await user.type(text, 'Keep me');
    await user.click(save());

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(journalCopy.saveFailed);
    expect(await toasts().findByText(journalCopy.errorTitle)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(text).toHaveValue('Keep me');
    expect(save()).toHaveTextContent('Save');
  });

  it('sends photos with the entry in one multipart request', async () => {
    api.on('POST /api/entries', json(201, buildEntry()));
    const { user, text, save } = await setup();
    await user.type(text, 'With pictures');
    await user.upload(screen.getByLabelText('Add photos'), [photoFile('a.jpg', MB), photoFile('b.png', MB, 'image/png')]);
    await user.click(save());

    await waitFor(() => expect(api.to('POST /api/entries')).toHaveLength(1));
    const form = api.to('POST /api/entries')[0]!.form!;
    expect(form.get('content')).toBe('With pictures');
    expect(form.getAll('photos').map((f) => (f as File).name)).toEqual(['a.jpg', 'b.png']);
    expect(api.to('POST /api/entries')[0]!.headers.Authorization).toBe('Bearer token-1');
  });

  it('cannot be closed while saving', async () => {
    api.on('POST /api/entries', pending);
    const { user, text, save } = await setup();
    await user.type(text, 'Busy');
    await user.click(save());
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  describe('photo checks', () => {
    it('refuses a file that is not an allowed image type', async () => {
      const { user, dialog } = await setup();
      await user.upload(screen.getByLabelText('Add photos'), photoFile('scan.bmp', MB, 'image/bmp'));
      expect(within(dialog).getByRole('alert')).toHaveTextContent(messages.entries.invalidFileType);
      expect(screen.queryByRole('img', { name: 'scan.bmp' })).not.toBeInTheDocument();
    });

    it('refuses a photo over 10 MB', async () => {
      const { user, dialog } = await setup();
      await user.upload(screen.getByLabelText('Add photos'), photoFile('huge.jpg', 10 * MB + 1));
      expect(within(dialog).getByRole('alert')).toHaveTextContent(messages.entries.fileTooLarge);
    });

    it('refuses photos over 10 MB in all', async () => {
      const { user, dialog } = await setup();
      await user.upload(screen.getByLabelText('Add photos'), [photoFile('a.jpg', 6 * MB), photoFile('b.jpg', 5 * MB)]);
      expect(within(dialog).getByRole('alert')).toHaveTextContent(photosTooLargeMessage(11 * MB));
      expect(screen.getByRole('img', { name: 'a.jpg' })).toBeInTheDocument();
      expect(screen.queryByRole('img', { name: 'b.jpg' })).not.toBeInTheDocument();
    });

    it('keeps at most 10 photos', async () => {
      const { user, dialog } = await setup();
      const files = Array.from({ length: 11 }, (_, i) => photoFile(`p${i}.jpg`, 1000));
      await user.upload(screen.getByLabelText('Add photos'), files);
      expect(within(dialog).getByRole('alert')).toHaveTextContent(messages.entries.tooManyPhotos);
      expect(within(dialog).getAllByRole('button', { name: /^Remove / })).toHaveLength(10);
    });
  });
});
