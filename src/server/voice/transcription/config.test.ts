import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

describe('transcription settings', () => {
  it('are off without TRANSCRIBE_URL', () => {
    expect(loadConfig({}).transcription).toBeNull();
  });

  it('read the API base, the key, the model (whisper-1), the language and the timeout (120 s)', () => {
    expect(loadConfig({ TRANSCRIBE_URL: 'https://api.openai.com/v1/', TRANSCRIBE_API_KEY: 'sk-abc' }).transcription).toEqual({
      url: 'https://api.openai.com/v1',
      apiKey: 'sk-abc',
      model: 'whisper-1',
      language: undefined,
      timeoutMs: 120_000,
    });
    expect(
      loadConfig({ TRANSCRIBE_URL: 'http://whisper:8000/v1', TRANSCRIBE_MODEL: 'Systran/faster-whisper-small', TRANSCRIBE_LANGUAGE: 'de', TRANSCRIBE_TIMEOUT_SECONDS: '30' }).transcription,
    ).toEqual({ url: 'http://whisper:8000/v1', apiKey: undefined, model: 'Systran/faster-whisper-small', language: 'de', timeoutMs: 30_000 });
  });

  it('refuse a TRANSCRIBE_URL that is not an http(s) API base, and a bad language or timeout', () => {
    expect(() => loadConfig({ TRANSCRIBE_URL: 'api.openai.com/v1' })).toThrow(/TRANSCRIBE_URL/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'ftp://example.com/v1' })).toThrow(/TRANSCRIBE_URL: must be an http/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'https://example.com/v1?key=1' })).toThrow(/TRANSCRIBE_URL: must be the API base/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'https://example.com/v1', TRANSCRIBE_LANGUAGE: 'English' })).toThrow(/TRANSCRIBE_LANGUAGE/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'https://example.com/v1', TRANSCRIBE_TIMEOUT_SECONDS: '0' })).toThrow(/TRANSCRIBE_TIMEOUT_SECONDS/);
  });
});
