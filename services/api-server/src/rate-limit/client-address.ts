import { addressKey, clientAddress, type TrustedProxies } from '@app/client-address';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

export { isProxyEntry, trustedProxies } from '@app/client-address';

/** The limit key of a request's client (see clientAddress and addressKey). */
export function requestAddressKey(c: Context, proxies: TrustedProxies): string {
  const peer = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
  return addressKey(clientAddress(peer, c.req.header('x-forwarded-for'), proxies));
}
