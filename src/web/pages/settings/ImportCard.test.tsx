import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { installSettingsApi, renderSettings } from './test-support';

/** A fake XMLHttpRequest: the test sends upload progress and the server's answer. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const journalFile = () => new File(['{"metadata":{"version":"1.0"},"entries":[]}'], 'Journal.json', { type: 'application/json' });
const lastUpload = async () => {
  await waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(0));
  return FakeXhr.sent.at(-1)!;
};

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Settings → Import', () => {
  const findCard = async () => within((await screen.findByRole('heading', { name: messages.importer.title })).closest('section')!);

  it('uploads the chosen file with the session, shows the progress, then what was imported', async () => {
    installSettingsApi();
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    const importButton = card.getByRole('button', { name: messages.importer.start });
    expect(importButton).toBeDisabled();

    await user.upload(card.getByLabelText(messages.importer.fileLabel), journalFile());
    await user.click(importButton);
    const xhr = await lastUpload();
    expect([xhr.method, xhr.url, xhr.headers.Authorization]).toEqual(['POST', '/api/import', 'Bearer token-1']);
    expect((xhr.body!.get('file') as File).name).toBe('Journal.json');

    xhr.progress(40, 100);
    const bar = await card.findByRole('progressbar');
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'));
    expect(card.getByText('40%')).toBeInTheDocument();
    xhr.progress(100, 100);
    expect(await card.findByText(messages.importer.processing)).toBeInTheDocument();

    xhr.respond(200, { imported: 3, skipped: 1, photos_skipped: 2 });
    const status = await card.findByRole('status');
    expect(status).toHaveTextContent('Imported 3 entries, skipped 1');
    expect(status).toHaveTextContent(messages.importer.photosSkipped(2));
    expect(within(status).getByRole('link', { name: messages.importer.openJournal })).toHaveAttribute('href', '/journal');
    expect(card.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the server’s message when the file cannot be imported, and works by keyboard', async () => {
    installSettingsApi();
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    const input = card.getByLabelText(messages.importer.fileLabel);
    await user.upload(input, journalFile());
    input.focus();
    await user.tab();
    expect(card.getByRole('button', { name: messages.importer.start })).toHaveFocus();
    await user.keyboard('{Enter}');
    (await lastUpload()).respond(400, { error: { code: 'INVALID_INPUT', message: messages.importer.unknownFormat } });
    expect(await card.findByRole('alert')).toHaveTextContent(messages.importer.unknownFormat);
  });

  it('refuses a file over the size limit before sending anything', async () => {
    installSettingsApi();
    renderSettings();
    const card = await findCard();
    const big = journalFile();
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    await userEvent.setup().upload(card.getByLabelText(messages.importer.fileLabel), big);
    expect(await card.findByRole('alert')).toHaveTextContent(messages.importer.tooLarge);
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('says so when the connection fails, and can be cancelled mid-upload', async () => {
    installSettingsApi();
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    await user.upload(card.getByLabelText(messages.importer.fileLabel), journalFile());
    await user.click(card.getByRole('button', { name: messages.importer.start }));
    (await lastUpload()).onerror!();
    expect(await card.findByRole('alert')).toHaveTextContent(messages.importer.failed);

    await user.click(card.getByRole('button', { name: messages.importer.start }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    FakeXhr.sent[1]!.progress(10, 100);
    await user.click(await card.findByRole('button', { name: messages.importer.cancel }));
    expect(FakeXhr.sent[1]!.aborted).toBe(true);
    await waitFor(() => expect(card.queryByRole('progressbar')).not.toBeInTheDocument());
    expect(card.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('signs in again once when the session expired during the upload', async () => {
    const api = installSettingsApi();
    api.on('POST /api/auth/token', () => ({ status: 200, body: { access_token: 'token-2', refresh_token: 'refresh-2', expires_in: 3600, expires_at: Math.floor(Date.now() / 1000) + 3600, token_type: 'bearer', user: { id: 'user-1', email: 'a@example.com' } } }));
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    await user.upload(card.getByLabelText(messages.importer.fileLabel), journalFile());
    await user.click(card.getByRole('button', { name: messages.importer.start }));
    (await lastUpload()).respond(401, { error: { code: 'UNAUTHORIZED', message: 'Token expired' } });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(FakeXhr.sent[1]!.headers.Authorization).toBe('Bearer token-2');
    FakeXhr.sent[1]!.respond(200, { imported: 1, skipped: 0, photos_skipped: 0 });
    expect(await card.findByRole('status')).toHaveTextContent('Imported 1 entry, skipped 0');
  });
});
