import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ANSWER_AT_ONCE, registerTurnEndWrites } from './turn-end-writes';

describe('answers are written at the end of the turn', () => {
  // What happened, in order: work the handler left for later in its turn, and the answer's write.
  async function orderWith(turnEnd: boolean, routeOptions = {}): Promise<{ order: string[]; body: string }> {
    const app = Fastify();
    if (turnEnd) registerTurnEndWrites(app);
    const order: string[] = [];
    app.get('/', routeOptions, async (_request, reply) => {
      reply.raw.once('finish', () => order.push('answer written'));
      setImmediate(() => order.push("the turn's other work"));
      return { ok: true };
    });
    const answer = await app.inject('/');
    await new Promise((resolve) => setImmediate(resolve));
    await app.close();
    return { order, body: answer.body };
  }

  it("writes an answer after the turn's other work, unchanged", async () => {
    expect(await orderWith(true)).toEqual({ order: ["the turn's other work", 'answer written'], body: '{"ok":true}' });
  });

  it('writes the answers of a route that asks for it at once', async () => {
    expect(await orderWith(true, ANSWER_AT_ONCE)).toEqual({ order: ['answer written', "the turn's other work"], body: '{"ok":true}' });
  });

  it('without it, an answer is written as soon as it is ready', async () => {
    expect((await orderWith(false)).order).toEqual(['answer written', "the turn's other work"]);
  });
});
