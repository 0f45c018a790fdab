import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportProgress } from '../../../shared/import';
import { messages } from '../../../shared/messages';
import type { SealedImportEntry } from '../../../shared/vault-import';
import { reply } from '../../test/fake-api';
import { lockVault, unlockVault } from '../../features/vault/key-store';
import { loadSodium } from '../../features/vault/sodium';
import { openSegment } from '../../features/vault/vault-crypto';
import { installSettingsApi, renderSettings } from '../../test/settings';

/** GET /api/vault/imported for a journal that imported nothing before its Vault. */
const NOTHING_IMPORTED_BEFORE = { key: 'a'.repeat(43), fingerprints: [], sealed: [] };

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

/** The server's event stream, driven by the test. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  private listeners = new Map<string, Array<(message: { data: string }) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (message: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data: unknown) {
    act(() => {
      for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data) });
    });
  }
  listensTo(type: string) {
    return this.listeners.has(type);
  }
  close() {}
}
/** The stream the import follows (the page keeps its own live stream beside it). */
const importStream = () => FakeEventSource.instances.find((stream) => stream.listensTo('import.progress'));

const journalFile = () => new File(['[2024-03-01 09:00] Called mom.\n'], 'journal.txt', { type: 'text/plain' });
const lastUpload = async () => {
  await waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(0));
  return FakeXhr.sent.at(-1)!;
};
const progress = (over: Partial<ImportProgress>): ImportProgress => ({
  id: 'imp-1',
  status: 'running',
  total: 200,
  imported: 0,
  skipped: 0,
  photos_imported: 0,
  photos_skipped: 0,
  reasons: [],
  error: null,
  ...over,
});
const counts = (p: ImportProgress) => ({ type: 'import.progress', import_id: p.id, status: p.status, total: p.total, imported: p.imported, skipped: p.skipped, photos_imported: p.photos_imported, photos_skipped: p.photos_skipped });

beforeEach(() => {
  FakeXhr.sent = [];
  FakeEventSource.instances = [];
  sessionStorage.clear();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Settings → Import', () => {
  const findCard = async () => within((await screen.findByRole('heading', { name: messages.importer.title })).closest('section')!);

  it('uploads the file with a progress bar, follows the import on the event stream, then says what came in and why the rest did not', async () => {
    const api = installSettingsApi();
    const final = progress({
      status: 'done',
      imported: 195,
      skipped: 5,
      photos_imported: 12,
      photos_skipped: 2,
      reasons: [
        { reason: 'already_imported', count: 4, examples: ['2024-03-01 “Called mom.”', '2024-03-02 “Rain.”', '2024-03-03 “Tea.”'] },
        { reason: 'empty', count: 2, examples: [] },
        { reason: 'photo_missing', count: 2, examples: ['d41d8cd98f00b204e9800998ecf8427e.jpeg (2024-03-06)'] },
        { reason: 'audio_missing', count: 2, examples: ['7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a (2024-03-04)', '8c3d4e5f60718293a4b5c6d7e8f90a1b.m4a (2024-03-05)'] },
        { reason: 'audio_unreadable', count: 1, examples: ['9d4e5f60718293a4b5c6d7e8f90a1b2c.m4a (2024-03-06)'] },
      ],
    });
    const statuses = [progress({ imported: 40 }), final];
    api.on('GET /api/imports/imp-1', () => reply(200, statuses.shift() ?? final));
    api.on('POST /api/events/ticket', reply(200, { ticket: 'ticket-1' }));
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    expect(card.getByRole('button', { name: messages.importer.start })).toBeDisabled();

    await user.upload(card.getByLabelText(messages.importer.fileLabel), journalFile());
    await user.click(card.getByRole('button', { name: messages.importer.start }));
    const xhr = await lastUpload();
    expect([xhr.method, xhr.url, xhr.headers.Authorization]).toEqual(['POST', '/api/import', 'Bearer token-1']);
    expect((xhr.body!.get('file') as File).name).toBe('journal.txt');
    xhr.progress(40, 100);
    await waitFor(() => expect(card.getByRole('progressbar', { name: messages.importer.uploading })).toHaveAttribute('aria-valuenow', '40'));

    xhr.respond(202, { import_id: 'imp-1' });
    const bar = await card.findByRole('progressbar', { name: messages.importer.progress(40, 200) });
    expect(bar).toHaveAttribute('aria-valuenow', '20');
    await waitFor(() => expect(importStream()).toBeDefined());
    expect(importStream()!.url).toBe('/api/events?ticket=ticket-1');
    importStream()!.emit('import.progress', counts(progress({ imported: 120, skipped: 30 })));
    expect(await card.findByRole('progressbar', { name: messages.importer.progress(150, 200) })).toHaveAttribute('aria-valuenow', '75');

    importStream()!.emit('import.progress', counts(final));
    const status = await card.findByRole('status');
    expect(status).toHaveTextContent('Imported 195 of 200 entries');
    expect(status).toHaveTextContent('12 photos added');
    expect(status).toHaveTextContent('4 entries were already in your journal');
    // Three examples of four: the fourth is counted, not lost from sight.
    expect(status).toHaveTextContent('2024-03-01 “Called mom.” · 2024-03-02 “Rain.” · 2024-03-03 “Tea.” · and 1 more');
    expect(status).toHaveTextContent('d41d8cd98f00b204e9800998ecf8427e.jpeg (2024-03-06) · and 1 more');
    expect(status).toHaveTextContent('2 entries have no text and no photos');
    expect(status).toHaveTextContent('2 photos named in the file are missing from the ZIP');
    expect(status).toHaveTextContent('d41d8cd98f00b204e9800998ecf8427e.jpeg (2024-03-06)');
    expect(status).toHaveTextContent('2 voice recordings were not in the ZIP file');
    expect(status).toHaveTextContent('7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a (2024-03-04) · 8c3d4e5f60718293a4b5c6d7e8f90a1b.m4a (2024-03-05)');
    expect(status).toHaveTextContent('1 voice recording is not audio we can play, so it was left out');
    expect(within(status).getByRole('link', { name: messages.importer.openJournal })).toHaveAttribute('href', '/journal');
    expect(card.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(sessionStorage.getItem('jotline.import')).toBeNull();
  });

  it('says a file with no entries has none, rather than "Imported 0 of 0 entries" as a success', async () => {
    const api = installSettingsApi();
    sessionStorage.setItem('jotline.import', 'imp-1');
    api.on('GET /api/imports/imp-1', reply(200, progress({ status: 'done', total: 0 })));
    renderSettings();
    const status = await (await findCard()).findByRole('status');
    expect(status).toHaveTextContent(messages.importer.noEntries);
    expect(status).not.toHaveTextContent('Imported 0 of 0');
  });

  it('shows an import still running after the page is reloaded', async () => {
    const api = installSettingsApi();
    sessionStorage.setItem('jotline.import', 'imp-1');
    api.on('GET /api/imports/imp-1', reply(200, progress({ status: 'queued', total: 0 })));
    renderSettings();
    const card = await findCard();
    expect(await card.findByRole('progressbar', { name: messages.importer.queued })).toBeInTheDocument();
    expect(card.getByRole('button', { name: messages.importer.start })).toBeDisabled();
  });

  it('says why an import failed', async () => {
    const api = installSettingsApi();
    sessionStorage.setItem('jotline.import', 'imp-1');
    api.on('GET /api/imports/imp-1', reply(200, progress({ status: 'failed', error: messages.importer.brokenZip })));
    renderSettings();
    expect(await (await findCard()).findByRole('alert')).toHaveTextContent(messages.importer.brokenZip);
  });

  it('shows the server’s message when it refuses the file at once, and works by keyboard', async () => {
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
    (await lastUpload()).respond(400, { error: { code: 'INVALID_INPUT', message: messages.importer.encrypted } });
    expect(await card.findByRole('alert')).toHaveTextContent('jrnl --decrypt');
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
    api.on('GET /api/imports/imp-2', reply(200, progress({ id: 'imp-2', status: 'done', total: 1, imported: 1 })));
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    await user.upload(card.getByLabelText(messages.importer.fileLabel), journalFile());
    await user.click(card.getByRole('button', { name: messages.importer.start }));
    (await lastUpload()).respond(401, { error: { code: 'UNAUTHORIZED', message: 'Token expired' } });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(FakeXhr.sent[1]!.headers.Authorization).toBe('Bearer token-2');
    FakeXhr.sent[1]!.respond(202, { import_id: 'imp-2' });
    expect(await card.findByRole('status')).toHaveTextContent('Imported 1 of 1 entry');
  });

  it('with the vault on, waits for it to be unlocked, then reads and seals the file here and sends it sealed', async () => {
    const sodium = await loadSodium();
    const pair = sodium.crypto_box_keypair();
    const keys = { publicKey: pair.publicKey, privateKey: pair.privateKey };
    const api = installSettingsApi();
    const publicKey = sodium.to_base64(pair.publicKey, sodium.base64_variants.ORIGINAL);
    api.on('GET /api/vault', reply(200, { enabled: true, state: 'on', public_key: publicKey, wrapped_keys: null, sealed_entries: 0, total_entries: 0 }));
    api.on('GET /api/vault/imported', reply(200, NOTHING_IMPORTED_BEFORE));
    const sent: SealedImportEntry[] = [];
    api.on('POST /api/vault/imported', (request) => {
      const { entries } = request.body as { entries: SealedImportEntry[] };
      sent.push(...entries);
      return reply(200, { entries: entries.map((_, i) => ({ id: `entry-${i}`, imported: true })) });
    });
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    expect(await card.findByText(messages.importer.vaultLocked)).toBeInTheDocument();
    // What was imported before the Vault is known with it too: the card makes the same promise.
    expect(await screen.findByText(messages.importer.lead)).toBeInTheDocument();
    await user.upload(card.getByLabelText(messages.importer.fileLabel), journalFile());
    expect(card.getByRole('button', { name: messages.importer.start })).toBeDisabled();

    act(() => unlockVault({ publicKey: keys.publicKey, privateKey: new Uint8Array(keys.privateKey) }));
    await waitFor(() => expect(card.queryByText(messages.importer.vaultLocked)).not.toBeInTheDocument());
    await user.click(card.getByRole('button', { name: messages.importer.start }));
    expect(await card.findByRole('status', {}, { timeout: 5_000 })).toHaveTextContent('Imported 1 of 1 entry');
    // Nothing went to the server's import, and the words went sealed.
    expect(FakeXhr.sent).toHaveLength(0);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent)).not.toContain('Called mom');
    expect(await openSegment(keys, sent[0]!.sealed[0]!)).toEqual({ text: 'Called mom.', at: sent[0]!.created_at, source: 'web' });
    expect([sent[0]!.entry_date, sent[0]!.time_zone, sent[0]!.word_count]).toEqual(['2024-03-01', 'America/New_York', 2]);
    act(() => lockVault());
  });

  it('has the browser ask before the tab closes while an import is being sealed here, and not after', async () => {
    const sodium = await loadSodium();
    const pair = sodium.crypto_box_keypair();
    const api = installSettingsApi();
    api.on('GET /api/vault', reply(200, { enabled: true, state: 'on', public_key: sodium.to_base64(pair.publicKey, sodium.base64_variants.ORIGINAL), wrapped_keys: null, sealed_entries: 0, total_entries: 0 }));
    api.on('GET /api/vault/imported', reply(200, NOTHING_IMPORTED_BEFORE));
    let answer: (() => void) | undefined;
    api.on('POST /api/vault/imported', (request) => {
      const { entries } = request.body as { entries: SealedImportEntry[] };
      return new Promise((resolve) => {
        answer = () => resolve(reply(200, { entries: entries.map((_, i) => ({ id: `entry-${i}`, imported: true })) }));
      });
    });
    const closeTab = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    renderSettings();
    const card = await findCard();
    const user = userEvent.setup();
    act(() => unlockVault({ publicKey: pair.publicKey, privateKey: new Uint8Array(pair.privateKey) }));
    await user.upload(card.getByLabelText(messages.importer.fileLabel), journalFile());
    await waitFor(() => expect(card.getByRole('button', { name: messages.importer.start })).toBeEnabled());
    expect(closeTab()).toBe(false);
    await user.click(card.getByRole('button', { name: messages.importer.start }));
    await waitFor(() => expect(answer).toBeDefined(), { timeout: 5_000 });
    expect(closeTab()).toBe(true);
    act(() => answer!());
    expect(await card.findByRole('status', {}, { timeout: 5_000 })).toHaveTextContent('Imported 1 of 1 entry');
    expect(closeTab()).toBe(false);
    act(() => lockVault());
  });
});
