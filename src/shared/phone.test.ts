import { describe, expect, it } from 'vitest';
import { limitPhoneInput, maskPhone, normalizeUsPhone } from './phone';

describe('normalizeUsPhone', () => {
  it('accepts ten digits in any common format', () => {
    expect(normalizeUsPhone('(202) 555-0123')).toBe('+12025550123');
    expect(normalizeUsPhone('202.555.0123')).toBe('+12025550123');
  });
  it('strips a leading 1', () => {
    expect(normalizeUsPhone('1 202 555 0123')).toBe('+12025550123');
    expect(normalizeUsPhone('+1 (202) 555-0123')).toBe('+12025550123');
  });
  it('refuses numbers that are not US ten-digit numbers', () => {
    expect(normalizeUsPhone('12345')).toBeNull();
    expect(normalizeUsPhone('44 20 7946 0958 1')).toBeNull();
    expect(normalizeUsPhone('0125550123')).toBeNull();
    expect(normalizeUsPhone('')).toBeNull();
  });
});

describe('limitPhoneInput', () => {
  it('keeps at most 11 digits', () => {
    expect(limitPhoneInput('1-202-555-0123-999')).toBe('1-202-555-0123-');
  });
});

describe('maskPhone', () => {
  it('shows only the last four digits', () => {
    expect(maskPhone('+12025550123')).toBe('(•••) •••-0123');
  });
});
