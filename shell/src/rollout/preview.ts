import { API_PATHS, type PreviewGrant, PreviewGrantSchema } from '@app/contracts';
import * as v from 'valibot';
import { PREVIEW_KEY } from './preview-key';

/**
 * QA preview links (`pnpm rollout preview <remote> <version>` prints one): `/?preview=<signed token>` pins one
 * remote to one released version in this browser until the token expires or the visitor exits. The browser
 * cannot check the HMAC (the secret stays on the server), so the API verifies the token on every page load;
 * anything it refuses is forgotten and the stable version is served.
 */
export { PREVIEW_KEY };

const PARAM = 'preview';

export type PreviewState =
  | { status: 'none' }
  | { status: 'active'; grant: PreviewGrant }
  | { status: 'refused'; message: string };

/** Moves a `?preview=` token from the address bar into storage (so a reload or a shared URL is clean). */
export function takePreviewParam(location: Location = window.location, history: History = window.history) {
  const url = new URL(location.href);
  const token = url.searchParams.get(PARAM);
  if (token === null) return;
  url.searchParams.delete(PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  try {
    localStorage.setItem(PREVIEW_KEY, token);
  } catch {
    // without storage the preview lasts for this load only
    sessionToken = token;
  }
}

let sessionToken: string | null = null;

function storedToken(): string | null {
  try {
    return localStorage.getItem(PREVIEW_KEY) ?? sessionToken;
  } catch {
    return sessionToken;
  }
}

export function clearPreview(): void {
  sessionToken = null;
  try {
    localStorage.removeItem(PREVIEW_KEY);
  } catch {
    // nothing stored
  }
}

const ErrorBodySchema = v.object({ error: v.string() });

export async function verifyPreview(apiBaseUrl: string, timeoutMs = 3000): Promise<PreviewState> {
  const token = storedToken();
  if (!token) return { status: 'none' };
  try {
    const response = await fetch(`${apiBaseUrl}${API_PATHS.rolloutPreview}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body: unknown = await response.json().catch(() => null);
    if (response.ok) {
      const grant = v.safeParse(PreviewGrantSchema, body);
      if (grant.success) return { status: 'active', grant: grant.output };
    } else if (response.status >= 400 && response.status < 500) {
      clearPreview();
      const error = v.safeParse(ErrorBodySchema, body);
      return {
        status: 'refused',
        message: error.success ? error.output.error : 'This preview link is not valid.',
      };
    }
  } catch {
    // the API is unreachable: keep the token for the next load, serve the live versions now
  }
  return {
    status: 'refused',
    message: 'The preview link could not be checked, so the live version is shown.',
  };
}
