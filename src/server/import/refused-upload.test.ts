import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { buildUser, signIn } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

const MB = 1024 * 1024;

/** What came back on the socket: the raw answer, and whether the server closed the connection. */
interface Answer {
  text: string;
  closed: boolean;
}

/**
 * POSTs a multipart upload that announces `totalBytes` of file but sends only the first `sentBytes`
 * of it, then waits for an answer without sending more, as a browser still pushing a big file would.
 */
function startUpload(port: number, token: string, head: Buffer, totalBytes: number): Promise<{ socket: Socket; answer: Promise<Answer> }> {
  const boundary = 'jotline-refused-upload';
  const before = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="holiday.png"\r\nContent-Type: image/png\r\n\r\n`);
  const after = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = before.length + totalBytes + after.length;
  return new Promise((started) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
      );
      socket.write(Buffer.concat([before, head]));
      let text = '';
      const answer = new Promise<Answer>((done) => {
        socket.on('data', (chunk) => {
          text += chunk.toString('latin1');
        });
        socket.on('close', () => done({ text, closed: true }));
        socket.on('error', () => {});
      });
      started({ socket, answer });
    });
  });
}

describe('an import upload refused at its first bytes', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    const user = await buildUser(t);
    userId = user.id;
    token = await signIn(t, user);
  });
  afterAll(() => t.close());

  it('is answered 400 while the rest of a 20 MB file is still unsent, and the connection is closed', async () => {
    // A PNG header and a megabyte of picture: no journal. The other 19 MB are never sent.
    const head = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(MB, 0x11)]);
    const { answer } = await startUpload(port, token, head, 20 * MB);
    const { text, closed } = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain(JSON.stringify({ error: { code: 'INVALID_INPUT', message: messages.importer.unknownFormat } }));
    expect(closed).toBe(true);
    // Nothing was kept, and the next request (a new connection) is answered as usual.
    // (On PostgreSQL the database is shared with other test files: this user's imports only.)
    expect(await t.app.ctx.db.selectFrom('import_jobs').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 90_000);
});
