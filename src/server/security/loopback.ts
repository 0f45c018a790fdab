import type { FastifyRequest } from 'fastify';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** Headers a proxy adds to name the client it forwards for. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * True when the request comes from this machine: the connection is from a loopback address, and if
 * a proxy on this machine forwarded it, every address it names is loopback too. Read from the socket,
 * not request.ip: a client can write X-Forwarded-For itself.
 */
export function isLoopbackRequest(request: FastifyRequest): boolean {
  if (!LOOPBACK.test(request.socket.remoteAddress ?? '')) return false;
  for (const name of FORWARDING_HEADERS) {
    const value = request.headers[name];
    if (value === undefined) continue;
    const addresses = (Array.isArray(value) ? value.join(',') : value)
      .split(/[,;]/)
      .map((part) => part.trim().replace(/^for=/i, '').replace(/^"|"$/g, '').replace(/^\[|\]$/g, ''))
      .filter((part) => part && !/^(by|proto|host)=/i.test(part));
    if (addresses.length === 0 || !addresses.every((address) => LOOPBACK.test(address))) return false;
  }
  return true;
}
