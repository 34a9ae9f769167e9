import { API_PATHS, PreviewGrantSchema } from '@app/contracts';
import type { PreviewState } from '@app/rollout';
import * as v from 'valibot';
import { EDGE_PATHS, pagePlan } from './page-plan';
import { PREVIEW_KEY } from './preview-key';

export type { PreviewState };
/**
 * QA preview links (`pnpm rollout preview <remote> <version>` prints one): `/?preview=<signed token>` pins one
 * remote to one released version in this browser until the token expires or the visitor exits. The edge
 * opens the link (docs/decisions/0026-edge.md): it verifies the token, keeps it in a cookie and paints the
 * previewed version from the first byte; the page's plan says what it decided. Where no edge served the page,
 * the token waits in storage and the API verifies it on every page load. Either way, anything refused is
 * forgotten and the stable version is served.
 */
export { PREVIEW_KEY };

const PARAM = 'preview';

/**
 * Takes a `?preview=` token out of the address bar (so a reload or a shared URL is clean); where no edge
 * opened it, into storage for this and the next page loads.
 */
export function takePreviewParam(location: Location = window.location, history: History = window.history) {
  const url = new URL(location.href);
  const token = url.searchParams.get(PARAM);
  if (token === null) return;
  url.searchParams.delete(PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  if (pagePlan()) return; // the edge has dealt with it (a refused link: the plan says why)
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

/** Exit preview: the edge's cookie (where an edge serves the page) and any stored token are dropped. */
export async function exitPreview(): Promise<void> {
  clearPreview();
  if (!pagePlan()) return;
  try {
    await fetch(EDGE_PATHS.exitPreview, { method: 'POST', signal: AbortSignal.timeout(5000) });
  } catch {
    // the reload that follows still serves the preview; the banner stays, and Exit can be pressed again
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
