import { resolve } from 'node:path';
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

  it('read WHISPER_MODEL: notes are transcribed on this server, in the language set or detected, within the timeout', () => {
    const config = loadConfig({ WHISPER_MODEL: 'models/ggml-tiny.en.bin', TRANSCRIBE_TIMEOUT_SECONDS: '300' });
    expect(config.voice.transcribes).toBe(true);
    expect(config.transcription).toBeNull();
    expect(config.whisper).toEqual({ modelPath: resolve('models/ggml-tiny.en.bin'), language: undefined, timeoutMs: 300_000 });
    expect(loadConfig({ WHISPER_MODEL: '/srv/ggml-base.bin', TRANSCRIBE_LANGUAGE: 'de' }).whisper).toEqual({ modelPath: '/srv/ggml-base.bin', language: 'de', timeoutMs: 120_000 });
    expect(loadConfig({}).whisper).toBeNull();
    expect(loadConfig({}).voice.transcribes).toBe(false);
  });

  it('refuse WHISPER_MODEL beside TRANSCRIBE_URL: one engine or the other', () => {
    expect(() => loadConfig({ WHISPER_MODEL: '/srv/ggml-base.bin', TRANSCRIBE_URL: 'https://api.openai.com/v1' })).toThrow(
      'WHISPER_MODEL: set either WHISPER_MODEL (transcribe on this server) or TRANSCRIBE_URL (a transcription service), not both',
    );
  });

  it('refuse a TRANSCRIBE_URL that is not an http(s) API base, and a bad language or timeout', () => {
    expect(() => loadConfig({ TRANSCRIBE_URL: 'api.openai.com/v1' })).toThrow(/TRANSCRIBE_URL/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'ftp://example.com/v1' })).toThrow(/TRANSCRIBE_URL: must be an http/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'https://example.com/v1?key=1' })).toThrow(/TRANSCRIBE_URL: must be the API base/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'https://example.com/v1', TRANSCRIBE_LANGUAGE: 'English' })).toThrow(/TRANSCRIBE_LANGUAGE/);
    expect(() => loadConfig({ TRANSCRIBE_URL: 'https://example.com/v1', TRANSCRIBE_TIMEOUT_SECONDS: '0' })).toThrow(/TRANSCRIBE_TIMEOUT_SECONDS/);
  });
});
