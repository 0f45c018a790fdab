import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecording } from '../voice/recordings';
import { buildTestApp, type TestApp } from '../test/app';
import { testAudio } from '../test/audio';
import { createEntry, journalUser, type JournalTestUser } from '../test/journal';

// The ZIP export keeps voice notes as Day One does: each file in audios/MD5.FORMAT, and an `audios`
// array on its entry with the identifier, md5, format, length and, when there is one, the transcript.

describe('voice notes in the ZIP export', () => {
  let t: TestApp;
  let user: JournalTestUser;
  const sent: Buffer[] = [];
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-04-20T15:00:00Z'));
    user = await journalUser(t, { timezone: 'UTC' });
    const entry = await createEntry(t, user, { content: 'Spoken on the ferry', entry_date: '2026-04-19' });
    sent.push(await testAudio('m4a', 3), await testAudio('aac', 5));
    await addRecording(t.app.ctx, user.id, { audio: sent[0]!, origin: 'import', receivedAt: t.clock.now(), entryId: entry.id, transcript: 'Gulls everywhere', sourceKey: 'test:one' });
    t.clock.advance(60_000);
    await addRecording(t.app.ctx, user.id, { audio: sent[1]!, origin: 'import', receivedAt: t.clock.now(), entryId: entry.id, sourceKey: 'test:two' });
  });
  afterAll(() => t.close());

  it('writes each recording to audios/ and names it on its entry', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/export?format=zip', headers: user.headers });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
    const names = Object.keys(files).filter((n) => n.startsWith('audios/')).sort();
    expect(names).toEqual([`audios/${md5(sent[0]!)}.m4a`, `audios/${md5(sent[1]!)}.aac`].sort());
    const journal = JSON.parse(new TextDecoder().decode(files['Journal.json']));
    const [entry] = journal.entries;
    expect(entry.audios).toHaveLength(2);
    expect(entry.audios.map((a: { md5: string; format: string; fileSize: number; transcription?: string }) => [a.md5, a.format, a.fileSize, a.transcription])).toEqual([
      [md5(sent[0]!), 'm4a', sent[0]!.length, 'Gulls everywhere'],
      [md5(sent[1]!), 'aac', sent[1]!.length, undefined],
    ]);
    for (const audio of entry.audios) expect(audio.identifier).toMatch(/^[0-9A-F]{32}$/);
    expect(entry.audios[0].duration).toBeCloseTo(3, 0);
    expect(entry.audios[1].duration).toBeCloseTo(5, 0);
  });
});
