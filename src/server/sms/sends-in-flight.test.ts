import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { releaseUnfinishedSends, sendingStopped, stopSending } from './sends-in-flight';
import { buildSmsTestApp, startFakeTwilio, type FakeTwilio, type SmsTestApp } from '../test/sms';

/** A Twilio that takes requests and never answers, as one does when the network hangs mid-send. */
async function startHangingTwilio() {
  const waiting: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    waiting.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    waiting,
    close: () =>
      new Promise<void>((r) => {
        for (const res of waiting) res.destroy();
        server.close(() => r());
      }),
  };
}

describe('claimed sends when an instance shuts down', () => {
  let hanging: Awaited<ReturnType<typeof startHangingTwilio>>;
  let working: FakeTwilio;
  let a: SmsTestApp;
  let b: SmsTestApp;
  beforeAll(async () => {
    hanging = await startHangingTwilio();
    working = await startFakeTwilio();
    a = await buildSmsTestApp({ twilio: { url: hanging.url } as FakeTwilio });
    b = await buildSmsTestApp({ twilio: working, sameDatabaseAs: a });
    a.clock.set(new Date('2026-07-01T12:00:00Z'));
    b.clock.set(new Date('2026-07-01T12:00:00Z'));
  });
  afterAll(async () => {
    await hanging.close();
    await b.close();
    await a.close();
    await working.close();
  });

  const statusOf = (id: string) => a.ctx.db.selectFrom('sms_messages').select(['status', 'claimed_at']).where('id', '=', id).executeTakeFirstOrThrow();

  it('claims nothing more once stopping, and puts the send it could not finish back in the queue for another instance', async () => {
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    const ids: string[] = [];
    for (const [i, to] of phones.entries()) ids.push((await enqueueSms(a.ctx, { userId: null, to, body: `notice ${i}`, kind: 'help' })).id);

    // The sender claims the three together and sends them at once; the provider never answers.
    const sending = sendDueMessages(a.ctx);
    await vi.waitFor(() => expect(hanging.waiting).toHaveLength(3));
    for (const id of ids) expect(await statusOf(id)).toMatchObject({ status: 'sending' });

    stopSending(a.ctx);
    expect(sendingStopped(a.ctx)).toBe(true);
    expect(await releaseUnfinishedSends(a.ctx)).toBe(3);
    for (const id of ids) expect(await statusOf(id)).toEqual({ status: 'pending', claimed_at: null });

    // Another instance sends all three at once, without waiting out a stale claim.
    expect(await sendDueMessages(b.ctx)).toMatchObject({ sent: 3 });
    expect(working.sent.map((m) => m.to).sort()).toEqual([...phones].sort());
    const recorded = await Promise.all(ids.map(statusOf));
    expect(recorded.map((r) => r.status)).toEqual(['queued', 'queued', 'queued']); // Twilio's answer

    // A text queued now is not taken by the stopping sender.
    const late = (await enqueueSms(a.ctx, { userId: null, to: uniquePhone(), body: 'late notice', kind: 'help' })).id;
    // The hung sends finally fail: that changes nothing the other instance recorded.
    for (const res of hanging.waiting) res.destroy();
    await sending;
    expect(hanging.waiting).toHaveLength(3);
    expect(await Promise.all(ids.map(statusOf))).toEqual(recorded);
    expect(await sendDueMessages(a.ctx)).toMatchObject({ sent: 0 });
    expect((await statusOf(late)).status).toBe('pending');
  });
});
