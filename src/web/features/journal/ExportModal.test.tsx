import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../shared/messages';
import { fakeSession } from '../../test/fake-api';
import { journalCopy } from './copy';
import { fileNameFrom } from './export-download';
import { ExportModal } from './ExportModal';
import { failure, installJournalApi, json, pending, renderJournal, stats, type JournalApi } from '../../test/journal';

let api: JournalApi;
let downloads: { name: string; href: string }[];
beforeEach(() => {
  api = installJournalApi();
  downloads = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, href: this.href });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function openExport(onOpenChange = vi.fn()) {
  renderJournal(<ExportModal open onOpenChange={onOpenChange} />);
  const dialog = await screen.findByRole('dialog', { name: 'Export your journal' });
  return { dialog, user: userEvent.setup(), exportButton: () => within(dialog).getByRole('button', { name: /^Export(ing\.\.\.)?$/ }) };
}

describe('export modal', () => {
  it('is disabled while the journal has no entries', async () => {
    api.on('GET /api/stats', json(200, stats({ total_days: 0, current_streak: 0, total_photos: 0, total_words: 0 })));
    const { exportButton } = await openExport();
    await waitFor(() => expect(exportButton()).toBeDisabled());
    expect(screen.getByText(messages.entries.exportEmpty)).toBeInTheDocument();
  });

  it('downloads a PDF with photos for the chosen days, with the token, named as the server says', async () => {
    api.on('GET /api/stats', json(200, stats()));
    api.on('GET /api/export', {
      status: 200,
      body: new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="journal-export-2026-03-10.pdf"' },
    });
    const onOpenChange = vi.fn();
    const { dialog, user, exportButton } = await openExport(onOpenChange);
    expect(within(dialog).getByRole('radio', { name: /PDF/ })).toBeChecked();
    await user.click(within(dialog).getByRole('switch', { name: 'Include photos' }));
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2026-01-31' } });
    await user.click(exportButton());

    await waitFor(() => expect(downloads).toHaveLength(1));
    const [request] = api.to('GET /api/export');
    expect(Object.fromEntries(request!.params)).toEqual({ format: 'pdf', from: '2026-01-01', to: '2026-01-31', photos: 'true' });
    expect(request!.headers.Authorization).toBe('Bearer token-1');
    expect(downloads[0]!.name).toBe('journal-export-2026-03-10.pdf');
    expect(downloads[0]!.href).toMatch(/^blob:/);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it.each([
    ['Plain text', 'txt'],
    ['Markdown', 'md'],
    ['JSON', 'json'],
    [messages.zipExport.label.replace(/[()]/g, '.'), 'zip'],
  ])('exports %s without the PDF photo switch or dates', async (label, format) => {
    api.on('GET /api/export', { status: 200, body: 'journal', headers: { 'content-disposition': `attachment; filename="j.${format}"` } });
    const { dialog, user, exportButton } = await openExport();
    await user.click(within(dialog).getByRole('radio', { name: new RegExp(label) }));
    expect(within(dialog).queryByRole('switch', { name: 'Include photos' })).not.toBeInTheDocument();
    await user.click(exportButton());
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(api.to('GET /api/export')[0]!.params.toString()).toBe(`format=${format}&photos=false`);
  });

  it('shows Exporting... while the file is made', async () => {
    api.on('GET /api/export', pending);
    const { user, exportButton } = await openExport();
    await user.click(exportButton());
    expect(exportButton()).toHaveTextContent(journalCopy.exporting);
    expect(exportButton()).toBeDisabled();
  });

  it('explains the limit after too many exports', async () => {
    api.on('GET /api/export', failure(429, 'Too many requests', 'RATE_LIMITED'));
    const { dialog, user, exportButton } = await openExport();
    await user.click(exportButton());
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(messages.entries.exportRateLimited);
    expect(downloads).toHaveLength(0);
  });

  it('says when PDFs with photos have used up their own allowance, and that other formats still work', async () => {
    api.on('GET /api/export', failure(429, messages.exportLimits.photoPdfRateLimited, 'RATE_LIMITED'));
    const { dialog, user, exportButton } = await openExport();
    await user.click(exportButton());
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(messages.entries.exportRateLimited);
    expect(alert).toHaveTextContent('PDFs with photos are limited to 5 every 15 minutes; text, Markdown and JSON exports still work.');
    expect(exportButton()).toBeEnabled();
    expect(downloads).toHaveLength(0);
  });

  it('refreshes an expired token once and tries again', async () => {
    api.on('GET /api/export', (request) =>
      request.headers.Authorization === 'Bearer token-2' ? { status: 200, body: 'journal' } : failure(401, 'Your session has expired. Please sign in again.'),
    );
    api.on('POST /api/auth/token', json(200, fakeSession({ access_token: 'token-2' })));
    const { user, exportButton } = await openExport();
    await user.click(exportButton());
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(api.to('GET /api/export').map((r) => r.headers.Authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(downloads[0]!.name).toMatch(/^journal-export-\d{4}-\d{2}-\d{2}\.pdf$/);
  });

  it('shows the server message for other refusals', async () => {
    api.on('GET /api/export', failure(400, messages.entries.exportEmptyRange, 'INVALID_INPUT'));
    const { dialog, user, exportButton } = await openExport();
    await user.click(exportButton());
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(messages.entries.exportEmptyRange);
  });
});

describe('export file name', () => {
  it('reads the plain and the encoded forms', () => {
    expect(fileNameFrom('attachment; filename="journal-export-2026-03-10.txt"')).toBe('journal-export-2026-03-10.txt');
    expect(fileNameFrom("attachment; filename*=UTF-8''journal%20export.md")).toBe('journal export.md');
    expect(fileNameFrom(null)).toBeNull();
  });
});
