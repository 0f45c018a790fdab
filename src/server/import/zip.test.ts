import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { readDayOneZip } from './zip';

const zip = (files: Record<string, string | Uint8Array>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, data]) => [name, typeof data === 'string' ? new TextEncoder().encode(data) : data]))));

describe('reading a Day One ZIP', () => {
  it('unpacks the journals at the top level and the photos by md5, and nothing else', () => {
    const archive = readDayOneZip(zip({ 'Journal.json': '{}', 'Travel.json': '{"a":1}', 'photos/ABC123.jpeg': new Uint8Array([1, 2]), 'videos/x.mov': 'movie', 'nested/Other.json': '{}' }));
    expect(archive.journals.map((j) => j.name).sort()).toEqual(['Journal.json', 'Travel.json']);
    expect([...archive.photos.keys()]).toEqual(['abc123']);
    expect(archive.photos.get('abc123')).toMatchObject({ fileName: 'ABC123.jpeg' });
  });

  it('refuses an archive that unpacks too large (a zip bomb) before inflating it', () => {
    // 2 MB of zeros compresses to a few kilobytes.
    const bomb = zip({ 'Journal.json': '{}', 'photos/zeros.jpeg': new Uint8Array(2 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(20_000);
    expect(() => readDayOneZip(bomb, { maxUnpackedBytes: 1024 * 1024, maxFiles: 100 })).toThrow(messages.importer.zipTooBig);
  });

  it('refuses an archive with too many files', () => {
    const files: Record<string, string> = { 'Journal.json': '{}' };
    for (let i = 0; i < 20; i++) files[`videos/${i}.mov`] = 'x';
    expect(() => readDayOneZip(zip(files), { maxUnpackedBytes: 1024 * 1024, maxFiles: 10 })).toThrow(messages.importer.zipTooBig);
  });

  it('says so when the archive is damaged or holds no journal', () => {
    const good = zip({ 'Journal.json': '{"metadata":{},"entries":[]}' });
    expect(() => readDayOneZip(good.subarray(0, good.length - 30))).toThrow(messages.importer.brokenZip);
    expect(() => readDayOneZip(zip({ 'photos/a.jpeg': 'x' }))).toThrow(messages.importer.zipWithoutJournal);
  });
});
