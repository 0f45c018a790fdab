import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The kinds of real audio the tests make: what phones, browsers and Twilio send. */
export type TestAudioKind = 'wav-mulaw' | 'ogg-opus' | 'ogg-vorbis' | 'm4a' | 'aac' | 'mp3' | 'webm' | 'webm-live' | '3gp' | '3gp-video';

const OUTPUT: Record<TestAudioKind, { file: string; args: string[] }> = {
  // Twilio's call recordings: 8 kHz μ-law WAV.
  'wav-mulaw': { file: 'a.wav', args: ['-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw'] },
  'ogg-opus': { file: 'a.ogg', args: ['-c:a', 'libopus'] },
  'ogg-vorbis': { file: 'a.ogg', args: ['-c:a', 'libvorbis'] },
  // An iPhone's voice memo.
  m4a: { file: 'a.m4a', args: ['-c:a', 'aac'] },
  aac: { file: 'a.aac', args: ['-c:a', 'aac', '-f', 'adts'] },
  mp3: { file: 'a.mp3', args: ['-c:a', 'libmp3lame'] },
  webm: { file: 'a.webm', args: ['-c:a', 'libopus'] },
  // A 3GP audio note (AAC in a 3GP container: this ffmpeg has no AMR encoder).
  '3gp': { file: 'a.3gp', args: ['-ar', '8000', '-ac', '1', '-c:a', 'aac'] },
  // Written as a stream, like Chromium's MediaRecorder: no length in the container.
  'webm-live': { file: 'a.webm', args: ['-c:a', 'libopus', '-live', '1'] },
  '3gp-video': { file: 'a.3gp', args: [] },
};

/** Real audio of `seconds` (a 440 Hz tone), made by ffmpeg in a temporary directory. */
export async function testAudio(kind: TestAudioKind, seconds = 3): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'audio-'));
  try {
    const out = join(dir, OUTPUT[kind].file);
    const inputs = ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];
    if (kind === '3gp-video') inputs.push('-f', 'lavfi', '-i', `color=size=64x64:duration=${seconds}`, '-c:a', 'aac', '-c:v', 'mpeg4', '-shortest');
    if (kind === 'webm-live') {
      // Piped out, the muxer cannot go back to write the length.
      const { stdout } = await run('ffmpeg', ['-v', 'error', ...inputs, ...OUTPUT[kind].args, '-f', 'webm', 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
      return stdout;
    }
    await run('ffmpeg', ['-v', 'error', '-y', ...inputs, ...OUTPUT[kind].args, out]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
