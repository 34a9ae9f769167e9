import type { IncomingMessage } from 'node:http';

/** Where a request came from: HTTPS when the socket is TLS, or a proxy on this machine says it was. */
export function isSecure(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const peer = req.socket.remoteAddress ?? '';
  const local = peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1';
  return local && req.headers['x-forwarded-proto'] === 'https';
}

/**
 * The origin the visitor typed (Host, and https behind a TLS proxy on this machine), so the plan's absolute
 * URLs and the CSP name the page's own origin and never mix content.
 */
export function selfOriginOf(req: IncomingMessage, port: number): string {
  return `${isSecure(req) ? 'https' : 'http'}://${req.headers.host ?? `localhost:${port}`}`;
}
