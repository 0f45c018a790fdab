import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { bufferSource, checkUnpackedSizes, openZip, ZIP_LIMITS } from './zip';

const zip = (files: Record<string, string | Uint8Array>, level: 0 | 9 = 9) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, data]) => [name, typeof data === 'string' ? new TextEncoder().encode(data) : data])), { level }));

/** Sets a file's declared (uncompressed) size in both its local header and the central directory. */
function lieAboutSize(archive: Buffer, declared: number): Buffer {
  const out = Buffer.from(archive);
  for (let i = 0; i < out.length - 4; i++) {
    const signature = out.readUInt32LE(i);
    if (signature === 0x04034b50) out.writeUInt32LE(declared, i + 22);
    if (signature === 0x02014b50) out.writeUInt32LE(declared, i + 24);
  }
  return out;
}

describe('reading a ZIP by its central directory', () => {
  it('lists the files and unpacks the one asked for', async () => {
    const archive = await openZip(bufferSource(zip({ 'Journal.json': '{"a":1}', 'photos/ABC123.jpeg': new Uint8Array([1, 2]), 'nested/Other.json': '{}' })));
    expect([...archive.files.keys()].sort()).toEqual(['Journal.json', 'nested/Other.json', 'photos/ABC123.jpeg']);
    expect((await archive.read('Journal.json')).toString()).toBe('{"a":1}');
    expect([...(await archive.read('photos/ABC123.jpeg'))]).toEqual([1, 2]);
  });

  it('refuses by declared sizes, before inflating, what would unpack too large', async () => {
    const archive = await openZip(bufferSource(zip({ 'Journal.json': '{}', 'photos/zeros.jpeg': new Uint8Array(2 * 1024 * 1024) })));
    expect(() => checkUnpackedSizes(archive, ['Journal.json', 'photos/zeros.jpeg'], { ...ZIP_LIMITS, maxUnpackedBytes: 1024 * 1024 })).toThrow(messages.importer.zipTooBig);
    expect(() => checkUnpackedSizes(archive, ['Journal.json'], { ...ZIP_LIMITS, maxUnpackedBytes: 1024 * 1024 })).not.toThrow();
  });

  it('stops a file that inflates past its ratio limit while inflating, even when it lies about its size', async () => {
    // 8 MB of zeros packs into a few kilobytes; declared as 8 MB it passes the size checks.
    const bomb = zip({ 'Journal.json': new Uint8Array(8 * 1024 * 1024) });
    const archive = await openZip(bufferSource(bomb), { ...ZIP_LIMITS, maxRatio: 100 });
    await expect(archive.read('Journal.json')).rejects.toThrow(messages.importer.zipTooBig);
    // Declared smaller than it unpacks to: stopped at the declared size.
    const liar = await openZip(bufferSource(lieAboutSize(zip({ 'Journal.json': new Uint8Array(1024 * 1024) }), 1000)));
    await expect(liar.read('Journal.json')).rejects.toThrow(messages.importer.brokenZip);
  });

  it('refuses an archive that lists too many files, and says so when it is damaged', async () => {
    const files: Record<string, string> = { 'Journal.json': '{}' };
    for (let i = 0; i < 20; i++) files[`videos/${i}.mov`] = 'x';
    await expect(openZip(bufferSource(zip(files)), { ...ZIP_LIMITS, maxFiles: 10 })).rejects.toThrow(messages.importer.zipTooBig);
    const good = zip({ 'Journal.json': '{"metadata":{},"entries":[]}' });
    await expect(openZip(bufferSource(good.subarray(0, good.length - 30)))).rejects.toThrow(messages.importer.brokenZip);
    await expect(openZip(bufferSource(Buffer.from('PK\u0003\u0004 definitely not a real zip')))).rejects.toThrow(messages.importer.brokenZip);
  });
});
