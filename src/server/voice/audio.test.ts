import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { voiceMessages } from '../../shared/voice-messages';
import { AppError } from '../errors';
import { amrNb, testAudio, type TestAudioKind } from '../test/audio';
import { testImage } from '../test/journal';
import { decoderWarning, decodeToWav16k, findDecoders, probeAudio } from './audio';

// Audio is known by decoding it (ffprobe and ffmpeg as child processes), never by its name.

async function refusal(bytes: Buffer, maxSeconds = 300): Promise<AppError> {
  try {
    await probeAudio(bytes, maxSeconds);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('probeAudio took it');
}

describe('probing audio', () => {
  const kinds: Array<[TestAudioKind, string]> = [
    ['wav-mulaw', 'audio/wav'],
    ['ogg-opus', 'audio/ogg'],
    ['ogg-vorbis', 'audio/ogg'],
    ['m4a', 'audio/mp4'],
    ['aac', 'audio/aac'],
    ['mp3', 'audio/mpeg'],
    ['webm', 'audio/webm'],
    ['3gp', 'audio/3gpp'],
    ['amr', 'audio/amr'],
    ['3gp-amr', 'audio/3gpp'],
  ];

  it.each(kinds)('takes %s as %s, with its length from the container', async (kind, mimeType) => {
    const probed = await probeAudio(await testAudio(kind, 3), 300);
    expect(probed.mimeType).toBe(mimeType);
    expect(probed.durationSeconds).toBeGreaterThan(2.9);
    expect(probed.durationSeconds).toBeLessThan(3.2);
  });

  it('probes a burst of notes at once, each in its turn, and every one gets its own answer', async () => {
    const lengths = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const notes = await Promise.all(lengths.map((seconds) => testAudio('wav-mulaw', seconds)));
    const probed = await Promise.all(notes.map((bytes) => probeAudio(bytes, 300)));
    expect(probed.map((p) => Math.round(p.durationSeconds))).toEqual(lengths);
  });

  it('counts a phone memo in AMR by its frames, the pauses of comfort noise included', async () => {
    // 2 s of speech, then 3 s of the comfort-noise frames a phone sends while its owner is quiet.
    const memo = amrNb(5, 2);
    expect((await probeAudio(memo, 300)).durationSeconds).toBe(5);
    // What the file alone would say: no length (ffprobe can only guess one from a file's size and
    // bitrate), and decoding drops the pause.
    const stated = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', '-i', 'pipe:0'], { input: memo });
    expect(stated.stdout.toString().trim()).toBe('N/A');
    const wav = await decodeToWav16k(memo);
    expect(wav.length).toBeLessThan(16_000 * 2 * 3);
    expect(wav.length).toBeGreaterThan(16_000 * 2 * 1.9);
    // In 3GP, as an Android phone sends it, the container states the whole length.
    const probed = await probeAudio(await testAudio('3gp-amr', 4), 300);
    expect(probed).toEqual({ mimeType: 'audio/3gpp', durationSeconds: 4 });
    // A note longer than the limit is refused by its frames too.
    expect((await refusal(amrNb(301, 1), 300)).message).toBe('Voice notes can be up to 5 minutes.');
  });

  it('measures a browser recording whose container has no length by decoding it', async () => {
    const live = await testAudio('webm-live', 4);
    // The container itself says no length (what the fallback is for).
    const probe = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', '-i', 'pipe:0'], { input: live });
    expect(probe.stdout.toString().trim()).toBe('N/A');
    const probed = await probeAudio(live, 300);
    expect(probed.mimeType).toBe('audio/webm');
    expect(probed.durationSeconds).toBeGreaterThan(3.9);
    expect(probed.durationSeconds).toBeLessThan(4.2);
  });

  it('refuses a text file named .mp3, an image, a 3GP with video, and nothing at all', async () => {
    for (const bytes of [Buffer.from('These are not the sounds you are looking for.\n'.repeat(20)), await testImage('png'), await testAudio('3gp-video', 2), Buffer.alloc(0)]) {
      const error = await refusal(bytes);
      expect(error.status).toBe(400);
      expect(error.message).toBe(voiceMessages.errors.notAudio);
    }
  });

  it('refuses a recording longer than the limit, and one past 25 MB before decoding it', async () => {
    const long = await refusal(await testAudio('wav-mulaw', 301), 300);
    expect(long.status).toBe(400);
    expect(long.message).toBe('Voice notes can be up to 5 minutes.');
    expect((await probeAudio(await testAudio('wav-mulaw', 60), 60)).durationSeconds).toBeCloseTo(60, 1);
    const large = await refusal(Buffer.alloc(25 * 1024 * 1024 + 1));
    expect(large.status).toBe(413);
    expect(large.message).toBe(voiceMessages.errors.tooLarge);
  });

  it.each(['3gp', 'amr', '3gp-amr'] as const)('decodes phone audio (%s) to 16 kHz mono WAV for transcription', async (kind) => {
    const wav = await decodeToWav16k(await testAudio(kind, 2));
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('latin1')).toBe('WAVE');
    // fmt chunk: channels at 22, sample rate at 24.
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(16_000);
    // About 2 s of 16-bit samples.
    expect(wav.length).toBeGreaterThan(60_000);
    expect(wav.length).toBeLessThan(70_000);
    const error = await decodeToWav16k(Buffer.from('not audio')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
  });
});

describe('the decoders at start', () => {
  it('finds ffmpeg and ffprobe here, and says what a missing one stops', async () => {
    expect(await findDecoders()).toEqual({ ffmpeg: true, ffprobe: true });
    expect(decoderWarning({ ffmpeg: true, ffprobe: true }, true)).toBeNull();
    expect(decoderWarning({ ffmpeg: false, ffprobe: false }, false)).toBe(
      'Audio decoder not found: ffprobe and ffmpeg are not on the PATH (Debian: apt-get install ffmpeg); voice notes (calls, MMS, the web) are refused until it is installed.',
    );
    expect(decoderWarning({ ffmpeg: false, ffprobe: true }, true)).toMatch(/^Audio decoder not found: ffmpeg .*cannot be transcribed/);
  });
});
