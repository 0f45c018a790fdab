import type { FastifyInstance } from 'fastify';

export async function devPhoneRoutes(_app: FastifyInstance): Promise<void> {}
