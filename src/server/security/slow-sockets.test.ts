import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';

describe('slow sockets', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('closes a socket whose headers never finish (slowloris), answering 408, and goes on serving others', async () => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One more header line a second, never the blank line that ends them.
    const drip = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: a\r\n`), 1_000);
    const closed = await new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      // Well past the 10 s the headers get (checked every 2 s); the test fails rather than waits.
      setTimeout(() => resolve(false), 25_000);
    });
    clearInterval(drip);
    socket.destroy();
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);

    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(healthy.status).toBe(200);
  }, 40_000);
});
