import type { FastifyInstance } from 'fastify';

export async function smsWebhookRoutes(_app: FastifyInstance): Promise<void> {}
