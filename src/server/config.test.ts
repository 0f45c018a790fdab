import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs on embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.sms.provider).toBe('simulator');
    expect(config.databaseUrl).toMatch(/^sqlite:.*jotline\.db$/);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('requires the Twilio credentials when Twilio is chosen', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_ACCOUNT_SID/);
  });

  it('refuses the simulators in production', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toMatch(/SMS_PROVIDER.*refused in production/);
    expect(String((error as Error).message)).toMatch(/MASTER_KEY/);
  });
});
