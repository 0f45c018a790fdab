import type { FastifyInstance } from 'fastify';

/**
 * A request refused before its body has all arrived (an import that is no journal, a photo too
 * large) is answered at once with `Connection: close`, and the connection closes after the answer.
 * Kept open, the rest of the body was left unread: the browser went on pushing the file into a
 * socket nobody read and showed the answer only when the server's connection timeout cut it
 * (66 s for a 20 MB upload), and the next request on that connection waited as long.
 */
export function registerRefusedUploads(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const hasBody = request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    if (reply.statusCode >= 400 && hasBody && !request.raw.complete) reply.header('connection', 'close');
    return payload;
  });
}
