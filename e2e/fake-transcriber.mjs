import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

// The journeys' transcription service: an OpenAI-compatible `POST /v1/audio/transcriptions` on
// 127.0.0.1 that hears by length, as the journeys arrange it: a note of about 6 seconds is heard as
// FOGHORN, one of about 8 seconds is refused as too large (413, so it is kept "Not transcribed"),
// and any other as CRICKETS. Started by the Playwright config beside the product.

export const CRICKETS = 'Crickets by the lake at nightfall.';
export const FOGHORN = 'A foghorn far out on the water.';

/** Seconds of the WAV inside a multipart body (ffmpeg writing to a pipe leaves the data length open). */
function wavSeconds(body) {
  const riff = body.indexOf('RIFF');
  if (riff < 0) return 0;
  const byteRate = body.readUInt32LE(riff + 28);
  const data = body.indexOf('data', riff + 12);
  if (data < 0 || !byteRate) return 0;
  const declared = body.readUInt32LE(data + 4);
  const end = body.indexOf('\r\n--', data + 8);
  const length = declared && declared !== 0xffffffff ? declared : (end < 0 ? body.length : end) - data - 8;
  return length / byteRate;
}

function serve(port) {
  createServer((req, res) => {
    if (req.url === '/healthz') return void res.end('ok');
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return void res.writeHead(404).end();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const seconds = Math.round(wavSeconds(Buffer.concat(chunks)));
      if (seconds === 8) return void res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":{"message":"file too large"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: seconds === 6 ? FOGHORN : CRICKETS }));
    });
  }).listen(port, '127.0.0.1');
}

// Run as a program (node e2e/fake-transcriber.mjs PORT); the journeys import only its words.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) serve(Number(process.argv[2] ?? 3998));
