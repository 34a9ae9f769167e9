import type { IncomingMessage } from 'node:http';

const isLocal = (peer: string) => peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1';

/** Where a request came from: HTTPS when the socket is TLS, or a proxy on this machine says it was. */
export function isSecure(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  return isLocal(req.socket.remoteAddress ?? '') && req.headers['x-forwarded-proto'] === 'https';
}

/**
 * The client's address: the socket's peer, or, when that is a proxy on this machine (nginx in the cluster
 * sets `X-Forwarded-For: $remote_addr`), the last address the proxy wrote. Trusted on the same terms as
 * X-Forwarded-Proto above; anyone else's header is ignored.
 */
export function clientAddress(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  if (!isLocal(peer) || typeof forwarded !== 'string') return peer;
  return forwarded.split(',').at(-1)?.trim() || peer;
}

/**
 * The origin the visitor typed (Host, and https behind a TLS proxy on this machine), so the plan's absolute
 * URLs and the CSP name the page's own origin and never mix content.
 */
export function selfOriginOf(req: IncomingMessage, port: number): string {
  return `${isSecure(req) ? 'https' : 'http'}://${req.headers.host ?? `localhost:${port}`}`;
}
