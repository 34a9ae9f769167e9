// Whether a request comes from the operators' side of the network (issue 44, issue 48): the edge's
// `/_edge/status` and every instance's `/metrics` tell what fails where, which is for operators, not
// visitors. A request qualifies when its socket's peer is on loopback or a private network AND nothing
// proxied it: a request through nginx's public server always carries X-Forwarded-For (infra/nginx sets it on
// every proxied location), and nginx's own config answers 404 for these paths besides.
import type { IncomingHttpHeaders } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { plainAddress } from './client-address';

const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  INTERNAL.addSubnet(net, bits, 'ipv4');
}
INTERNAL.addAddress('::1', 'ipv6');
INTERNAL.addSubnet('fc00::', 7, 'ipv6');
INTERNAL.addSubnet('fe80::', 10, 'ipv6');

/** What the rule reads of a request (node:http's IncomingMessage has both). */
export interface InternalRequestParts {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined };
}

export function isInternalRequest(req: InternalRequestParts): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  const peer = plainAddress(req.socket.remoteAddress ?? '');
  const family = isIP(peer);
  return family !== 0 && INTERNAL.check(peer, family === 6 ? 'ipv6' : 'ipv4');
}
