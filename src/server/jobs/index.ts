import type { FastifyInstance } from 'fastify';

/** Starts the background scheduler when the app is ready and stops it on close. */
export function registerJobs(_app: FastifyInstance): void {
  // The SMS slice wires the outbound sender, inbound sweep and reminders here.
}
