import { readToken } from './token-store';

/**
 * Answers the server already fetched for this page (docs/decisions/0021-first-screen-with-data.md): the static
 * server asks the API what a guest's first screen needs, renders the picture from those answers and sends
 * them along in the page, so the live app's first render shows the same cards instead of a skeleton and
 * asks the API nothing. They are a guest's answers: with a token they are never used, and the shell forgets
 * them once the route's remote has rendered (a later visit asks the API as usual).
 */
export interface PrimedResponse {
  body: unknown;
  /** The response headers a caller reads (lower-case names), e.g. a paged list's next cursor. */
  headers?: Record<string, string>;
}

export type PrimedResponses = Record<string, PrimedResponse>;

/** The element the edge writes the answers into (a data block: never executed, so no CSP hash). */
export const PRIMED_RESPONSES_SELECTOR = 'script[type="application/json"][data-primed-responses]';

let primed = new Map<string, PrimedResponse>();

/**
 * The key of a GET: its path and query, exactly as the client sends them (the server fetches
 * `<apiBaseUrl><key>`).
 */
export function requestKey(path: string, searchParams?: URLSearchParams): string {
  const query = searchParams?.toString() ?? '';
  return query ? `${path}?${query}` : path;
}

export function primeResponses(responses: PrimedResponses): void {
  primed = new Map(Object.entries(responses));
}

export function forgetPrimedResponses(): void {
  primed = new Map();
}

/** A primed answer to this GET, for a guest only (the server fetched it without a token). */
export function primedResponse(key: string): PrimedResponse | undefined {
  return readToken() === null ? primed.get(key) : undefined;
}

/** Reads the page's primed answers (the shell calls this once, before the first render); {} without any. */
export function readPrimedResponses(doc: Document = document): PrimedResponses {
  const text = doc.querySelector(PRIMED_RESPONSES_SELECTOR)?.textContent;
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PrimedResponses) : {};
  } catch {
    return {};
  }
}
