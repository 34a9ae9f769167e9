/**
 * What the servers saw of a version (docs/decisions/0043-server-signals-in-the-gate.md): the edge counts,
 * per remote, version and track, the first screens it rendered on the server for that version's code, how
 * many failed, and how many were slow, and sends them to the API a minute at a time. Unlike the browsers'
 * reports these need no visitor at all: a canary whose server render throws is seen even when no browser
 * ever reports (a crawler, a visitor who leaves before the page is hidden, a shell that cannot load).
 *
 * Counted per render, not per visitor: the edge is ours (nobody can mint renders but by requesting pages,
 * which the edge draws into cohorts itself), and the renders of one minute are summed before they are stored.
 */

/** A render slower than this (the API's answers fetched and the release's code run) counts as slow. */
export const SLOW_RENDER_MS = 1000;

/** The tracks the edge counts: a preview's or a dev override's renders are nobody's rollout evidence. */
export const SERVER_TRACKS = ['stable', 'canary'] as const;
export type ServerTrack = (typeof SERVER_TRACKS)[number];

/** One version's server renders over a window. */
export interface ServerFigures {
  renders: number;
  failures: number;
  /** Renders (failed or not) that took longer than SLOW_RENDER_MS. */
  slow: number;
  /** Sum of the renders' durations, ms (for the mean; the gate judges the share of slow ones). */
  durationMs: number;
}

export const NO_SERVER_FIGURES: ServerFigures = { renders: 0, failures: 0, slow: 0, durationMs: 0 };

export function addServerFigures(a: ServerFigures, b: ServerFigures): ServerFigures {
  return {
    renders: a.renders + b.renders,
    failures: a.failures + b.failures,
    slow: a.slow + b.slow,
    durationMs: a.durationMs + b.durationMs,
  };
}

/**
 * A one-sided test of "canary's share − stable's share exceeds the margin" for a count out of a number of
 * trials, by the Agresti–Caffo adjustment (one success and one failure added to each side): a plain Wald
 * interval has no width at 0 of 50 or 50 of 50, and would call either proven from a handful of renders.
 */
export function shareVerdict(
  canary: { count: number; n: number },
  stable: { count: number; n: number },
  margin: number,
  z: number,
): { verdict: 'within' | 'worse' | 'inconclusive'; canaryShare: number; stableShare: number } {
  const adjusted = (s: { count: number; n: number }) => (s.count + 1) / (s.n + 2);
  const variance = (p: number, s: { n: number }) => (p * (1 - p)) / (s.n + 2);
  const pc = adjusted(canary);
  // A stable with no renders in the window (no renderer at its version, or no stable traffic) is taken as
  // a clean baseline with no spread: its adjusted share (1 of 2) would otherwise hide any canary.
  const ps = stable.n === 0 ? 0 : adjusted(stable);
  const se = Math.sqrt(variance(pc, canary) + (stable.n === 0 ? 0 : variance(ps, stable)));
  const excess = pc - ps - margin;
  const share = (s: { count: number; n: number }) => (s.n === 0 ? 0 : s.count / s.n);
  const verdict = excess + z * se <= 0 ? 'within' : excess > z * se ? 'worse' : 'inconclusive';
  return { verdict, canaryShare: share(canary), stableShare: share(stable) };
}
