import type { IncomingMessage } from 'node:http';
import type { TrustedProxies } from '@app/client-address';

/**
 * Where a request came from and how its cookies are marked (issue 46), one per server (serve.ts): the scheme
 * is https when the socket is TLS, or when a trusted proxy (TRUSTED_PROXIES, by default this machine) says
 * so in X-Forwarded-Proto; a client's own claim counts for nothing. Cookies are Secure whenever that is
 * https or the public site (PUBLIC_SITE_URL) is: behind a TLS proxy on another host that forwards plain
 * http, or a hop that drops the header, the cookie still never travels over plain http.
 */
export interface RequestScheme {
  isSecure(req: IncomingMessage): boolean;
  secureCookies(req: IncomingMessage): boolean;
  /** The origin the visitor typed (Host, and https as above), for the plan's URLs and the CSP. */
  selfOriginOf(req: IncomingMessage, port: number): string;
}

const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];
/** This machine only: the edge's default when no TRUSTED_PROXIES are given (tests, `pnpm start`). */
const loopback: TrustedProxies = { trusts: (address) => LOOPBACK.includes(address) };

/** True when `url` is an https URL (PUBLIC_SITE_URL); anything else, unset included, is false. */
export const isHttpsUrl = (url: string | undefined) => /^https:\/\//i.test(url?.trim() ?? '');

export function requestScheme(
  o: { trustedProxies?: TrustedProxies; publicSiteUrl?: string } = {},
): RequestScheme {
  const proxies = o.trustedProxies ?? loopback;
  const publicHttps = isHttpsUrl(o.publicSiteUrl);
  const isSecure = (req: IncomingMessage) => {
    if ((req.socket as { encrypted?: boolean }).encrypted) return true;
    const proto = String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim()
      .toLowerCase();
    return proto === 'https' && proxies.trusts(req.socket.remoteAddress ?? '');
  };
  return {
    isSecure,
    secureCookies: (req) => publicHttps || isSecure(req),
    selfOriginOf: (req, port) =>
      `${isSecure(req) ? 'https' : 'http'}://${req.headers.host ?? `localhost:${port}`}`,
  };
}
