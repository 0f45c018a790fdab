import { describe, expect, it } from 'vitest';
import { renderJson as browserJson, renderMarkdown as browserMarkdown, renderText as browserText } from '../../shared/export-render';
import { renderJson } from '../export/json';
import { renderMarkdown } from '../export/markdown';
import { renderText } from '../export/text';
import type { CachedEntry } from '../journal/cache';

// A Vault journal is exported in the browser (src/shared/export-render.ts): its files must be the
// ones the server writes for every other journal, so they import back the same.
describe('the text exports made in the browser', () => {
  const photo = { id: 'p1', entry_id: 'e1', user_id: 'u', file_path: 'u/e1/1.jpg', thumb_path: 'u/e1/1.thumb.webp', file_name: 'pier.jpg', file_size: 1234, mime_type: 'image/jpeg', position: 0, created_at: '2026-11-20T10:00:00.000Z' };
  const entries: CachedEntry[] = [
    { id: 'e2', title: null, content: '# not a heading\nline two\n\n- not a list', tags: [], source: 'sms', entry_date: '2026-11-21', word_count: 9, created_at: '2026-11-22T03:30:00.000Z', updated_at: '2026-11-22T03:30:00.000Z', time_zone: null, sealed: null, photos: [], foldedTags: [], searchText: '' },
    { id: 'e1', title: 'Pier `at` dusk', content: 'Gulls and rain', tags: ['sea', 'Évening'], source: 'web', entry_date: '2026-11-20', word_count: 3, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T11:00:00.000Z', time_zone: 'Australia/Brisbane', sealed: null, photos: [photo], foldedTags: [], searchText: '' },
  ];
  const opened = entries.map(({ photos, ...e }) => ({ ...e, photos: photos.map((p) => ({ id: p.id, url: '', thumbnail_url: '', file_name: p.file_name, file_size: p.file_size, mime_type: p.mime_type })) }));

  it.each([
    ['plain text', renderText, browserText],
    ['Markdown', renderMarkdown, browserMarkdown],
    ['JSON', renderJson, browserJson],
  ] as const)('writes %s as the server does, in any zone, with or without photos', (_name, server, browser) => {
    for (const timezone of ['Pacific/Honolulu', 'Pacific/Kiritimati', 'Not/AZone'])
      for (const photos of [true, false]) {
        const input = { timezone, exportedAt: new Date('2026-11-25T01:57:00Z'), today: '2026-11-24', from: '2026-11-01', photos };
        expect(browser({ ...input, entries: opened })).toBe(server({ ...input, entries }));
      }
  });
});
