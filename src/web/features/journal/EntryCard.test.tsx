import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { journalCopy } from './copy';
import { EntryCard } from './EntryCard';
import { buildEntry, buildPhoto, failure, installJournalApi, json, renderJournal, type JournalApi } from '../../test/journal';

const toasts = () => within(screen.getByRole('region', { name: /Notifications/ }));
let api: JournalApi;
beforeEach(() => {
  api = installJournalApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('entry card', () => {
  it('shows the day, a 12-hour time, the source, title and tags', () => {
    // The account's zone, not the machine's: 20:05 UTC is 2:05 PM in Chicago, on the entry's own day.
    renderJournal(<EntryCard timeZone="America/Chicago" entry={buildEntry({ title: 'River walk', source: 'sms', tags: ['outdoors', 'birds'] })} />);
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Tuesday, March 3, 2026');
    expect(screen.getByText('2:05 PM')).toBeInTheDocument();
    expect(screen.getByText('SMS')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'River walk' })).toBeInTheDocument();
    expect(screen.getByText('#outdoors')).toBeInTheDocument();
    expect(screen.getByText('#birds')).toBeInTheDocument();
  });

  it('says when an entry was added on a later day, instead of a bare time as if written on its own day', () => {
    renderJournal(
      <>
        <EntryCard timeZone="America/Chicago" entry={buildEntry({ id: 'later', entry_date: '2026-03-03', created_at: '2026-03-04T15:00:00.000Z', content: 'Yesterday text' })} />
        <EntryCard timeZone="America/Chicago" entry={buildEntry({ id: 'same', entry_date: '2026-03-03', created_at: '2026-03-04T04:30:00.000Z', content: 'Late that night' })} />
      </>,
    );
    const [later, sameDay] = screen.getAllByRole('article');
    expect(later).toHaveTextContent(`${journalCopy.addedLater} · Mar 4, 9:00 AM`);
    expect(within(later!).getByText('Mar 4, 9:00 AM')).toHaveAttribute('datetime', '2026-03-04T15:00:00.000Z');
    // 04:30 UTC on the 4th is 10:30 PM on the 3rd in Chicago: written on its own day.
    expect(sameDay).toHaveTextContent('10:30 PM');
    expect(sameDay).not.toHaveTextContent(journalCopy.addedLater);
  });

  it('shows a short entry whole, without Show more', () => {
    renderJournal(<EntryCard entry={buildEntry({ content: 'x'.repeat(200) })} />);
    expect(screen.getByText('x'.repeat(200))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: journalCopy.showMore })).not.toBeInTheDocument();
  });

  it('collapses past 200 characters with an ellipsis, and expands and collapses again', async () => {
    const content = `${'a'.repeat(200)}TAIL`;
    renderJournal(<EntryCard entry={buildEntry({ content })} />);
    expect(screen.getByText(`${'a'.repeat(200)}…`)).toBeInTheDocument();
    expect(screen.queryByText(/TAIL/)).not.toBeInTheDocument();

    const user = userEvent.setup();
    const more = screen.getByRole('button', { name: journalCopy.showMore });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    expect(screen.getByText(content)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: journalCopy.showLess }));
    expect(screen.getByText(`${'a'.repeat(200)}…`)).toBeInTheDocument();
  });

  it('collapses to the first 4 lines even when short', async () => {
    renderJournal(<EntryCard entry={buildEntry({ content: 'one\ntwo\nthree\nfour\nfive' })} />);
    const text = screen.getByText(/^one/);
    expect(text.textContent).toBe('one\ntwo\nthree\nfour…');
    await userEvent.setup().click(screen.getByRole('button', { name: journalCopy.showMore }));
    expect(screen.getByText(/^one/).textContent).toBe('one\ntwo\nthree\nfour\nfive');
  });

  it('ends collapsed text in one mark: the ellipsis replaces final punctuation rather than doubling it', () => {
    renderJournal(
      <>
        <EntryCard entry={buildEntry({ content: 'Slept.\nWoke.\nRan.\nI feel well.\nThen lunch.' })} />
        <EntryCard entry={buildEntry({ content: `${'b'.repeat(196)}... and more after the cut` })} />
      </>,
    );
    expect(screen.getByText(/^Slept/).textContent).toBe('Slept.\nWoke.\nRan.\nI feel well…');
    expect(screen.getByText(/^b+/).textContent).toBe(`${'b'.repeat(196)}…`);
  });

  it('never cuts an emoji in half when collapsing', () => {
    renderJournal(<EntryCard entry={buildEntry({ content: `${'c'.repeat(199)}🙂 and the rest` })} />);
    expect(screen.getByText(/^c+/).textContent).toBe(`${'c'.repeat(199)}…`);
  });

  it('links the http and https addresses in an entry, opening them in a new tab without passing on the journal', () => {
    const content = 'Notes: https://docs.google.com/document/d/1aB_c-D/edit?usp=sharing. See (https://en.wikipedia.org/wiki/Heron_(bird)) too.';
    renderJournal(<EntryCard entry={buildEntry({ content })} />);
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://docs.google.com/document/d/1aB_c-D/edit?usp=sharing',
      'https://en.wikipedia.org/wiki/Heron_(bird)',
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    }
    expect(links[0]!.closest('p')).toHaveTextContent(content);
  });

  it('leaves anything else as text: markup, script addresses, and an address cut short by collapsing', async () => {
    const content = `<b>bold</b> javascript:alert(1) ftp://files.test/x ${'w'.repeat(100)} https://example.com/a/very/long/path/that/runs/past/the/cut/${'z'.repeat(60)}`;
    renderJournal(<EntryCard entry={buildEntry({ content })} />);
    const text = screen.getByText(/bold/);
    expect(text.textContent).toMatch(/^<b>bold<\/b> javascript:alert\(1\) ftp:\/\/files.test\/x w+ https:\/\/example.com\/.+…$/);
    expect(text.querySelector('b')).toBeNull();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: journalCopy.showMore }));
    expect(screen.getByRole('link')).toHaveAttribute('href', `https://example.com/a/very/long/path/that/runs/past/the/cut/${'z'.repeat(60)}`);
  });

  it('lets long words and addresses wrap anywhere inside the card', () => {
    renderJournal(<EntryCard entry={buildEntry({ content: 'x'.repeat(5000) })} />);
    expect(screen.getByRole('article')).toHaveClass('wrap-anywhere');
  });

  it('asks before deleting, with the spec text, and says when it is done', async () => {
    api.on('DELETE /api/entries/e1', json(204));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Delete entry/ }));

    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(messages.entries.deleteConfirm);
    expect(api.to('DELETE /api/entries/e1')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await toasts().findByText(journalCopy.deletedTitle)).toBeInTheDocument();
    expect(toasts().getByText(journalCopy.deleted)).toBeInTheDocument();
    expect(api.to('DELETE /api/entries/e1')).toHaveLength(1);
    expect(api.to('DELETE /api/entries/e1')[0]!.headers.Authorization).toBe('Bearer token-1');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('keeps the entry when the delete is cancelled', async () => {
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Delete entry/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.requests).toHaveLength(0);
  });

  it('says so when the delete fails', async () => {
    api.on('DELETE /api/entries/e1', failure(500, 'Something went wrong on our side. Please try again.'));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Delete entry/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await toasts().findByText(journalCopy.errorTitle)).toBeInTheDocument();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('edits the text, title and tags and saves them', async () => {
    const entry = buildEntry({ id: 'e1', content: 'First draft', tags: ['one'] });
    api.on('PATCH /api/entries/e1', (request) => json(200, { ...entry, content: request.json.content, tags: ['one', 'two'] }));
    renderJournal(<EntryCard entry={entry} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Edit entry/ }));

    const text = screen.getByLabelText('Entry');
    expect(text).toHaveFocus();
    expect(screen.getByText('11 / 10,000')).toBeInTheDocument();
    await user.clear(text);
    await user.type(text, 'Second draft');
    await user.type(screen.getByLabelText(/^Title/), 'Evening');
    await user.clear(screen.getByLabelText(/^Tags/));
    await user.type(screen.getByLabelText(/^Tags/), 'one, two');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await toasts().findByText(journalCopy.updatedTitle)).toBeInTheDocument();
    expect(api.to('PATCH /api/entries/e1')[0]!.json).toEqual({ content: 'Second draft', title: 'Evening', tags: 'one, two', base_version: 1 });
    expect(screen.queryByLabelText('Entry')).not.toBeInTheDocument();
  });

  it('cannot save an edit that leaves neither text nor photos, and cancels without a request', async () => {
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1', content: 'Words' })} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Edit entry/ }));
    await user.clear(screen.getByLabelText('Entry'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Words')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('keeps the editor open and says so when saving fails', async () => {
    api.on('PATCH /api/entries/e1', failure(400, messages.entries.contentTooLong));
    renderJournal(<EntryCard entry={buildEntry({ id: 'e1' })} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Edit entry/ }));
    await user.type(screen.getByLabelText('Entry'), ' more');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await toasts().findByText(messages.entries.contentTooLong)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(journalCopy.saveFailed);
    expect(screen.getByLabelText('Entry')).toBeInTheDocument();
  });

  it('removes a photo and adds one when saving an edit', async () => {
    const entry = buildEntry({ id: 'e1', photos: [buildPhoto(1), buildPhoto(2)] });
    api
      .on('PATCH /api/entries/e1', json(200, entry))
      .on('DELETE /api/entries/e1/photos/photo-1', json(204))
      .on('POST /api/entries/e1/photos', json(201, { ...entry, photos: [buildPhoto(2), buildPhoto(3)] }));
    renderJournal(<EntryCard entry={entry} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Edit entry/ }));
    await user.click(screen.getByRole('button', { name: /Remove Photo 1 of 2/ }));
    await user.upload(screen.getByLabelText('Add photos'), new File(['img'], 'new.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await toasts().findByText(journalCopy.updatedTitle)).toBeInTheDocument();
    expect(api.to('DELETE /api/entries/e1/photos/photo-1')).toHaveLength(1);
    const upload = api.to('POST /api/entries/e1/photos')[0]!;
    expect((upload.form!.get('photos') as File).name).toBe('new.png');
  });

  it('keeps the edit and offers the text that arrived meanwhile when the save is refused, saving only when asked', async () => {
    const entry = buildEntry({ id: 'e1', source: 'sms', content: 'Morning run.', version: 4 });
    const arrived = { ...entry, content: 'Morning run.\n\nDinner at Greektown.', version: 5 };
    api.on(
      'PATCH /api/entries/e1',
      json(409, { error: { code: 'ENTRY_CHANGED', message: messages.entries.entryChanged }, entry: arrived }),
      (request) => json(200, { ...arrived, content: request.json.content, version: 6 }),
    );
    renderJournal(<EntryCard entry={entry} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Edit entry/ }));
    await user.type(screen.getByLabelText('Entry'), ' By the lake.');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(journalCopy.changedTitle);
    expect(within(alert).getByText('Dinner at Greektown.')).toBeInTheDocument();
    expect(screen.getByLabelText('Entry')).toHaveValue('Morning run. By the lake.'); // what the user typed stays
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled(); // not again until the user says how
    expect(api.to('PATCH /api/entries/e1')).toHaveLength(1);

    await user.click(within(alert).getByRole('button', { name: journalCopy.addArrived }));
    expect(screen.getByLabelText('Entry')).toHaveValue('Morning run. By the lake.\n\nDinner at Greektown.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await toasts().findByText(journalCopy.updatedTitle)).toBeInTheDocument();
    expect(api.to('PATCH /api/entries/e1')[1]!.json).toMatchObject({ content: 'Morning run. By the lake.\n\nDinner at Greektown.', base_version: 5 });
  });

  it('shows how the entry reads now when another tab changed it, and can take that version', async () => {
    const entry = buildEntry({ id: 'e1', content: 'Rain all day.', version: 2 });
    const rewritten = { ...entry, content: 'Sun all day.', title: 'Better', version: 3 };
    api.on('PATCH /api/entries/e1', json(409, { error: { code: 'ENTRY_CHANGED', message: messages.entries.entryChanged }, entry: rewritten }));
    renderJournal(<EntryCard entry={entry} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Edit entry/ }));
    await user.type(screen.getByLabelText('Entry'), ' Cold.');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(journalCopy.changedElsewhere);
    expect(within(alert).getByText('Sun all day.')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: journalCopy.useSaved }));
    expect(screen.getByLabelText('Entry')).toHaveValue('Sun all day.');
    expect(screen.getByLabelText(/^Title/)).toHaveValue('Better');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('says the text was saved and the photos were not when the photo upload fails, and retries only the photos', async () => {
    const entry = buildEntry({ id: 'e1', content: 'Words', version: 1 });
    api
      .on('PATCH /api/entries/e1', (request) => json(200, { ...entry, content: request.json.content, version: 2 }))
      .on('POST /api/entries/e1/photos', failure(503, messages.entries.photoStorageFull), json(201, { ...entry, content: 'Words and more', version: 3 }));
    renderJournal(<EntryCard entry={entry} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Edit entry/ }));
    await user.type(screen.getByLabelText('Entry'), ' and more');
    await user.upload(screen.getByLabelText('Add photos'), new File(['img'], 'new.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(journalCopy.photosNotSavedTitle);
    expect(alert).toHaveTextContent(messages.entries.photoStorageFull);
    expect(alert).not.toHaveTextContent(journalCopy.saveFailed);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await toasts().findByText(journalCopy.updatedTitle)).toBeInTheDocument();
    expect(api.to('PATCH /api/entries/e1')).toHaveLength(1); // the saved text is not sent again
    expect(api.to('POST /api/entries/e1/photos')).toHaveLength(2);
  });

  it('opens a photo in a lightbox at its index and steps with the arrow keys', async () => {
    renderJournal(<EntryCard entry={buildEntry({ photos: [buildPhoto(1), buildPhoto(2), buildPhoto(3)] })} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open photo 2 of 3' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('2 / 3')).toBeInTheDocument();
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', '/media/full-2.jpg');
    expect(within(dialog).getByRole('img')).toHaveAccessibleName(/Photo 2 of 3/);
    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByText('3 / 3')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByText('1 / 3')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(within(dialog).getByText('3 / 3')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
