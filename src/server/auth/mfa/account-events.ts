import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordSecurityEvent } from '../../security/events';
import { deviceLabel } from './device';

/**
 * What the security log records of routes that belong to other features, by route and success: a
 * new password, turning the vault on and off, and exports. Recorded once the answer has gone, for
 * its signed-in user.
 */
const LOGGED_ROUTES: Record<string, string> = {
  'PUT /api/auth/user': 'password_changed',
  'PUT /api/vault': 'vault_on',
  'DELETE /api/vault': 'vault_off',
  'GET /api/export': 'export',
};

export function registerAccountEventLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const kind = LOGGED_ROUTES[`${request.method} ${request.routeOptions.url}`];
    if (!kind || !request.user || reply.statusCode >= 300) return;
    await recordSecurityEvent(request.server.ctx, {
      event_type: kind,
      severity: 'low',
      user_id: request.user.id,
      ip: request.ip,
      details: { device: deviceLabel(request.headers['user-agent']) },
    }).catch((error: unknown) => request.log.warn({ err: error instanceof Error ? error.message : 'unknown' }, 'security log write failed'));
  });
}
