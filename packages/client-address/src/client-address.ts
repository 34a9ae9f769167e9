// Who a request comes from, in one place for the API's rate limits and the edge's (issue 44): the socket's
// peer, or behind trusted proxies the nearest forwarded address, grouped the way limits count it.
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * The client's address as the rate limits see it: the socket's peer, or, only when that peer is a trusted
 * proxy (TRUSTED_PROXIES), the nearest X-Forwarded-For entry that is not itself a trusted proxy. A header
 * sent by anyone else is ignored: it is whatever the client wanted to write.
 */
export interface TrustedProxies {
  trusts(address: string): boolean;
}

/** An IPv4-mapped IPv6 address (::ffff:1.2.3.4) is the IPv4 address; zone ids are dropped. */
export function plainAddress(address: string): string {
  const noZone = address.split('%')[0] ?? address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(noZone);
  return mapped?.[1] ?? noZone;
}

/** A valid TRUSTED_PROXIES entry: an IPv4/IPv6 address or a CIDR range of one. */
export function isProxyEntry(entry: string): boolean {
  const [ip = '', bits, extra] = entry.split('/');
  const family = isIP(ip);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [ip = '', bits] = entry.split('/');
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  const none = entries.length === 0;
  return {
    trusts(address) {
      if (none) return false;
      const ip = plainAddress(address);
      const family = isIP(ip);
      return family !== 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  proxies: TrustedProxies,
): string {
  if (!peer) return 'unknown';
  let client = plainAddress(peer);
  if (!forwardedFor || !proxies.trusts(client)) return client;
  // Walk from the proxy towards the client: each hop appended the address it received the request from.
  const hops = forwardedFor.split(',').map((s) => plainAddress(s.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (isIP(hop) === 0) break; // garbage: the last trusted hop is the client we know
    client = hop;
    if (!proxies.trusts(hop)) break;
  }
  return client;
}

/**
 * The address as limits and the health gate count it, one place: an IPv4 address is itself (an IPv4-mapped
 * IPv6 address too); an IPv6 address is its /64, since one subscriber usually holds a whole /64 and can
 * pick any address in it. Anything unparseable is returned as it is (it is still one group).
 */
export function addressKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  const plain = ip.split('%')[0] ?? ip; // a zone id (fe80::1%eth0) names an interface, not a client
  if (!isIPv6(plain)) return ip;
  const g = ipv6Groups(plain);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  }
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const hex = (part: string) => (part ? part.split(':').map((h) => Number.parseInt(h, 16)) : []);
  const [head = '', rest] = text.split('::');
  const left = hex(head);
  const right = rest === undefined ? [] : hex(rest);
  const zeros = rest === undefined ? [] : Array(8 - left.length - right.length - tail.length).fill(0);
  return [...left, ...zeros, ...right, ...tail];
}
