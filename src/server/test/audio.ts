import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The kinds of real audio the tests make: what phones, browsers and Twilio send. */
export type TestAudioKind = 'wav-mulaw' | 'ogg-opus' | 'ogg-vorbis' | 'm4a' | 'aac' | 'mp3' | 'webm' | 'webm-live' | '3gp' | '3gp-video' | 'amr' | '3gp-amr';

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
  // Written by amrNb below (this ffmpeg decodes AMR but cannot encode it), then copied into 3GP as is.
  amr: { file: 'a.amr', args: [] },
  '3gp-amr': { file: 'a.3gp', args: ['-c:a', 'copy'] },
};

/**
 * An AMR-NB voice note in AMR's storage format (RFC 4867 §5) as a phone writes one: `seconds` of
 * 20 ms frames, the first `speaking` of them speech at 12.2 kbit/s (mode 7; seeded bits, which the
 * decoder plays as noise) and the rest the comfort-noise (SID) frames a phone sends in a pause.
 */
export function amrNb(seconds: number, speaking = seconds): Buffer {
  let seed = 20_261_129;
  const byte = () => ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) >> 16) & 0xff;
  const frames: Buffer[] = [Buffer.from('#!AMR\n', 'latin1')];
  const total = Math.round(seconds * 50);
  for (let i = 0; i < total; i++) {
    const speech = i < Math.round(speaking * 50);
    const frame = Buffer.alloc(speech ? 32 : 6);
    // The frame header: its type (7 speech, 8 SID) and the quality bit.
    frame[0] = ((speech ? 7 : 8) << 3) | 0x04;
    for (let j = 1; j < frame.length; j++) frame[j] = byte();
    frames.push(frame);
  }
  return Buffer.concat(frames);
}

/** Real audio of `seconds` (a 440 Hz tone; AMR: see amrNb), made by ffmpeg in a temporary directory. */
export async function testAudio(kind: TestAudioKind, seconds = 3): Promise<Buffer> {
  if (kind === 'amr') return amrNb(seconds);
  const dir = await mkdtemp(join(tmpdir(), 'audio-'));
  try {
    const out = join(dir, OUTPUT[kind].file);
    const inputs = ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];
    if (kind === '3gp-amr') {
      await writeFile(join(dir, 'a.amr'), amrNb(seconds));
      inputs.splice(0, inputs.length, '-i', join(dir, 'a.amr'));
    }
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
