import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { sniffUpload } from './sniff';

const text = (s: string) => Buffer.from(s);

describe('telling at once whether an upload can be a journal', () => {
  it('takes ZIPs, jrnl journals, JSON with entries and empty files', () => {
    expect(sniffUpload(Buffer.from('PK\u0003\u0004rest'), true)).toBe('zip');
    expect(sniffUpload(text('\uFEFF\n[2022-06-01 07:15] Hi.'), true)).toBe('text');
    expect(sniffUpload(text('2010-06-10 15:00 A jrnl 1.x entry.'), true)).toBe('text');
    expect(sniffUpload(text('{"metadata":{},"entries":[]}'), true)).toBe('text');
    expect(sniffUpload(text(''), true)).toBe('text');
    expect(sniffUpload(text('  \n\n'), true)).toBe('text');
  });

  it('names an encrypted jrnl journal (jrnl 1.x, 2 and 3) and says how to decrypt it', () => {
    const v3 = Buffer.concat([Buffer.from('JRNLv3'), Buffer.from([0, 30]), Buffer.from('{"salt":"c2FsdHNhbHRzYWx0c2FsdA=="}'), Buffer.from('gAAAAABmZ1xyz')]);
    const v2 = text(`gAAAAABl${'Q2hvY29sYXRlIGFuZCBjb2ZmZWUgaW4gdGhlIG1vcm5pbmc'.repeat(3)}==`);
    const v1 = randomBytes(4096);
    for (const file of [v3, v2, v1]) expect(() => sniffUpload(file, true)).toThrow(messages.importer.encrypted);
    expect(messages.importer.encrypted).toContain('jrnl --decrypt');
  });

  it('refuses pictures, documents and text that is no journal', () => {
    const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), randomBytes(2000)]);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2000)]);
    for (const file of [png, pdf, text('Dear diary, today was fine.'), text('{"hello": "world"}'), text('[1, 2, 3]')]) {
      expect(() => sniffUpload(file, true)).toThrow(messages.importer.unknownFormat);
    }
  });
});
