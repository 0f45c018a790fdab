import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankGlyphs, fontNames, pageLines } from '../../shared/test/pdf';
import { createEntry, journalUser, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';

describe('the words of the PDF export, as the server makes it', () => {
  let t: TestApp;
  let user: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-11-17T01:57:00Z'));
    user = await journalUser(t);
    await createEntry(t, user, { title: 'Путешествие 🧳', content: 'Ελληνικά, Русский, עברית, café, 中文 and 😀', tags: 'ταξίδι', entry_date: '2026-11-16' });
    await createEntry(t, user, { content: 'Too much pie 🥧 with 👨‍👩‍👧 behind a 🔒 door', entry_date: '2026-11-15' });
    await createEntry(t, user, { content: 'Day One **Bold** and *italic*, `code`\n\n- [ ] call mum\n- [x] buy pie\n- a list', entry_date: '2026-11-14' });
  });
  afterAll(() => t.close());

  const exportPdf = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/export?format=pdf', headers: user.headers });
    expect(res.statusCode).toBe(200);
    const doc = await PDFDocument.load(res.rawPayload);
    return { doc, lines: doc.getPages().flatMap((page) => pageLines(doc, page)) };
  };

  it('sets any script DejaVu prints as text, emoji in Noto Emoji (every word kept), and what neither has as ?', async () => {
    const { doc, lines } = await exportPdf();
    expect(new Set(fontNames(doc))).toEqual(new Set(['DejaVuSans-Bold', 'DejaVuSans', 'DejaVuSans-Oblique', 'DejaVuSansMono', 'NotoEmoji-Regular']));
    expect(lines).toContain('Путешествие 🧳');
    expect(lines).toContain('#ταξίδι');
    // The Hebrew word drawn right to left, its glyphs read back in the order they are seen.
    expect(lines).toContain('Ελληνικά, Русский, ,תירבע café, ?? and 😀');
    expect(lines).toContain('Too much pie 🥧 with 👨‍👩‍👧 behind a 🔒 door');
    // Drawn, not only there as text.
    expect(blankGlyphs(doc)).toEqual([]);
  });

  it('draws an entry’s Markdown instead of printing its asterisks', async () => {
    const { lines } = await exportPdf();
    expect(lines).toEqual(expect.arrayContaining(['Day One Bold and italic, code', '☐ call mum', '☑ buy pie', '• a list']));
    expect(lines.filter((line) => /\*|`|\[ \]/.test(line))).toEqual([]);
  });
});
