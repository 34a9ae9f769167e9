import type { OverrideState } from '@app/rollout';
import { pagePlan } from './page-plan';

/**
 * A dev override in this page (issue 47, docs/decisions/0042-dev-overrides.md): what the edge decided, and
 * whether the dev server failed this page (the remote then fell back to the live version: the banner must say
 * so, or a developer would wonder why their change does not show). Kept small: it is in every page's bundle,
 * the banner that reads it is loaded only when an override is there.
 */
export const OVERRIDE_PARAM = 'override';

export function overrideState(): OverrideState {
  return pagePlan()?.override ?? { status: 'none' };
}

let failed = false;
const listeners = new Set<() => void>();

/** The overridden remote could not be loaded from the dev server; the live version was loaded instead. */
export function noteOverrideFailed(): void {
  if (failed) return;
  failed = true;
  for (const listener of listeners) listener();
}

export const overrideFailed = () => failed;

export function onOverrideFailed(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Takes a refused `?override=` out of the address bar (an accepted one never reaches the page: the edge
 * redirects to the clean URL), so a reload or a shared URL does not carry the token.
 */
export function takeOverrideParam(location: Location = window.location, history: History = window.history) {
  const url = new URL(location.href);
  if (!url.searchParams.has(OVERRIDE_PARAM)) return;
  url.searchParams.delete(OVERRIDE_PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
