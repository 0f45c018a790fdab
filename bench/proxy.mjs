#!/usr/bin/env node
// A round-robin TCP proxy, as a load balancer in front of several app instances would be: each new
// connection goes to the next port in turn, and its bytes are piped both ways untouched. Run as a
// child of a benchmark (`child(proxyScript, 'proxy', { ports })`), it answers with its own port.
import { connect, createServer } from 'node:net';
import { listening } from './support.mjs';

/** Listens on a free local port and spreads connections over `ports`; resolves with the server. */
export function startProxy(ports) {
  let next = 0;
  const server = createServer((client) => {
    const upstream = connect(ports[next++ % ports.length], '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    // Either side closing or failing ends the pair.
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return server;
}

if (process.argv[2] === 'proxy') {
  const { ports } = JSON.parse(process.argv[3]);
  const port = await listening(startProxy(ports));
  process.once('SIGINT', () => process.exit(0));
  process.send({ port });
}
