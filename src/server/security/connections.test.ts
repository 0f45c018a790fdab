import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { apiClient, buildUser, signIn } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

const CAP = 20;

/** A connected socket, and a promise that resolves when the server closes it. */
async function openSocket(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, closed };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('connections an instance holds', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ MAX_CONNECTIONS: String(CAP) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('closes idle sockets beyond MAX_CONNECTIONS as they arrive, and takes new ones once others have gone', async () => {
    const idle = [];
    for (let i = 0; i < CAP; i++) idle.push(await openSocket(port));
    const over = await Promise.all(Array.from({ length: 10 }, () => openSocket(port)));
    // Each one over the cap is closed at once; those within it stay open.
    expect(await within(Promise.all(over.map((o) => o.closed)), 10_000)).toBe(true);
    expect(await within(Promise.race(idle.map((o) => o.closed)), 200)).toBe(false);

    for (const { socket } of idle) socket.destroy();
    await Promise.all(idle.map((o) => o.closed));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 30_000);

  it('cuts an upload that sends nothing for 30 s, before the minute an idle connection gets', async () => {
    const token = await signIn(t, await buildUser(t));
    const { socket, closed } = await openSocket(port);
    socket.write(
      `POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 10000000\r\n\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="j.json"\r\n\r\n{"entries": [',
    );
    // Then nothing: cut after 30 s of silence (the old limit was the 60 s connection timeout, and a
    // client sending a byte now and then kept it for the 300 s request timeout).
    expect(await within(closed, 50_000)).toBe(true);
  }, 60_000);

  it('gives a user at most 30 stream tickets a minute', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const api = apiClient(t);
    for (let i = 0; i < 30; i++) { const r = await api.post('/api/events/ticket', {}, token); expect(r.status, JSON.stringify(r.body)).toBe(200); }
    const refused = await api.post('/api/events/ticket', {}, token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'RATE_LIMITED', message: messages.generic.rateLimited } });
    t.clock.advance(60_001);
    expect((await api.post('/api/events/ticket', {}, token)).status).toBe(200);
  });
});
