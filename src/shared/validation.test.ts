import { describe, expect, it } from 'vitest';
import { checkSignUpPassword, cleanEmail, isEmailShaped, isStrongSignUpPassword, isSuspiciousInput } from './validation';

describe('isSuspiciousInput', () => {
  it.each(['<script>alert(1)</script>', 'javascript:alert(1)', 'VBScript:x', 'a onload=x', 'x onerror =y', 'eval(1)', 'expression(1)', '<iframe src=x>', '<object>', '<EMBED>'])(
    'refuses %s',
    (value) => expect(isSuspiciousInput(value)).toBe(true),
  );
  it.each(['ada@example.com', 'scripture.reader@example.com', 'evaluate@example.com', '(202) 555-0123'])('accepts %s', (value) =>
    expect(isSuspiciousInput(value)).toBe(false),
  );
});

describe('sign-up password rule', () => {
  it('needs 8 characters with an uppercase letter, a lowercase letter and a digit', () => {
    expect(isStrongSignUpPassword('Journal123')).toBe(true);
    expect(checkSignUpPassword('journal')).toEqual({ minLength: false, uppercase: false, lowercase: true, digit: false });
    expect(isStrongSignUpPassword('JOURNAL123')).toBe(false);
    expect(isStrongSignUpPassword('Journal!!')).toBe(false);
    expect(isStrongSignUpPassword('Jour123')).toBe(false);
  });
});

describe('emails', () => {
  it('are trimmed and cut to 254 characters', () => {
    expect(cleanEmail('  ada@example.com ')).toBe('ada@example.com');
    expect(cleanEmail('a'.repeat(300))).toHaveLength(254);
  });
  it('are shape-checked loosely', () => {
    expect(isEmailShaped('ada@example.com')).toBe(true);
    expect(isEmailShaped('ada@example')).toBe(false);
    expect(isEmailShaped('ada example.com')).toBe(false);
  });
});
