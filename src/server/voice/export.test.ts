import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voiceNoteLabel } from '../../shared/voice-messages';
import { pageLines } from '../../shared/test/pdf';
import { buildTestApp, type TestApp } from '../test/app';
import { testAudio } from '../test/audio';
import { bearer, signIn } from '../test/factories';
import { createEntry, journalUser, multipart, type JournalTestUser } from '../test/journal';

// Text and PDF exports carry a "Voice note, m:ss" line for each recording (the transcript is part
// of the entry's text already).

describe('exports of an entry with voice notes', () => {
  let t: TestApp;
  let user: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-04-20T15:00:00Z'));
    user = await journalUser(t, { timezone: 'UTC' });
    const entry = await createEntry(t, user, { content: 'Spoken on the ferry', entry_date: '2026-04-19' });
    for (const seconds of [3, 62]) {
      const form = await multipart({}, [{ name: 'note.ogg', bytes: await testAudio('ogg-opus', seconds) }], 'file');
      const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/recordings`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
      expect(res.statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  const exportAs = async (query: string) => {
    t.clock.advance(16 * 60 * 1000);
    return t.app.inject({ method: 'GET', url: `/api/export${query}`, headers: bearer(await signIn(t, user)) });
  };

  it('labels a length as m:ss', () => {
    expect([0, 3, 59.6, 62, 102, 300, 3725].map(voiceNoteLabel)).toEqual(['Voice note, 0:00', 'Voice note, 0:03', 'Voice note, 1:00', 'Voice note, 1:02', 'Voice note, 1:42', 'Voice note, 5:00', 'Voice note, 1:02:05']);
  });

  it('writes one line per voice note, oldest first, in the text and Markdown exports', async () => {
    const text = (await exportAs('?format=txt')).body;
    expect(text).toContain('Spoken on the ferry\n\nVoice note, 0:03\nVoice note, 1:02\n');
    const markdown = (await exportAs('?format=md')).body;
    expect(markdown).toContain('*Voice note, 0:03*  \n*Voice note, 1:02*');
  });

  it('draws them in the PDF under the entry text', async () => {
    const res = await exportAs('?format=pdf');
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const doc = await PDFDocument.load(res.rawPayload);
    const lines = doc.getPages().flatMap((page) => pageLines(doc, page));
    const at = lines.indexOf('Spoken on the ferry');
    expect(at).toBeGreaterThan(-1);
    expect(lines.slice(at + 1, at + 3)).toEqual(['Voice note, 0:03', 'Voice note, 1:02']);
  });
});
