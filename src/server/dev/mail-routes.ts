import type { FastifyInstance } from 'fastify';

/** GET /api/dev/mail: the simulated outbox, newest first (mounted only with the mail simulator). */
export async function devMailRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', async () => {
    const outbox = app.ctx.simulators.mail?.outbox ?? [];
    const messages = [...outbox].reverse().map((m) => ({ id: m.id, to: m.to, from: m.from, subject: m.subject, text: m.text, html: m.html ?? null, at: m.at }));
    return { messages };
  });
}
