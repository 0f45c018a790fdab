import { describe, expect, it } from 'vitest';
import { formatUsPhone, siteUrl } from './site';

describe('site', () => {
  it('formats a US number the way people read it', () => {
    expect(formatUsPhone('+15555550100')).toBe('(555) 555-0100');
    expect(formatUsPhone('+447700900123')).toBe('+447700900123');
  });

  it('builds canonical addresses on the public origin', () => {
    expect(siteUrl('/')).toBe('https://jotline.app/');
    expect(siteUrl('/privacy')).toBe('https://jotline.app/privacy');
  });
});
