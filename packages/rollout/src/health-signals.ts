/**
 * What visitors feel, per remote and version (docs/decisions/0027-health-gate.md): the kinds of event a page
 * view reports, and the figures of one version over a window, counted per visitor.
 *
 * A page view carries one ticket (@app/rollout/node health-ticket); each kind counts once per ticket and
 * version. A visitor's error rate is the share of their page views with a failure of any kind; a version's
 * error rate is the mean of its visitors' rates, so a visitor who reloads 50 times weighs what one who came
 * once weighs. A visitor's Web Vital is the median of their page views'; a version's is the 75th percentile
 * of its visitors'. At most ADDRESS_VISITOR_CAP visitors count per client address group.
 */
export const HEALTH_KINDS = [
  'load',
  'load-failure',
  'render-error',
  'runtime-error',
  'server-render-failure',
  'lcp',
  'inp',
  'cls',
] as const;
export type HealthKind = (typeof HEALTH_KINDS)[number];

/**
 * Kinds only the server records: the page view's first screen failed to render on the edge, which the edge
 * writes into the ticket (`renderFailures`) and the API stores from there. A browser sending one is refused.
 */
export const SERVER_KINDS = ['server-render-failure'] as const;
export const isServerKind = (kind: HealthKind): boolean => (SERVER_KINDS as readonly string[]).includes(kind);

/** Kinds that make a page view a failed one. */
export const ERROR_KINDS = [
  'load-failure',
  'render-error',
  'runtime-error',
  'server-render-failure',
] as const;
export const VITAL_KINDS = ['lcp', 'inp', 'cls'] as const;
export type VitalKind = (typeof VITAL_KINDS)[number];

export const isErrorKind = (kind: HealthKind): boolean => (ERROR_KINDS as readonly string[]).includes(kind);
export const isVitalKind = (kind: HealthKind): kind is VitalKind =>
  (VITAL_KINDS as readonly string[]).includes(kind);

/** One visitor's figures for one version over a window. */
export interface VisitorFigures {
  /** Page views that reported anything for this version. */
  views: number;
  /** Of those, views with a load failure, a render error or a runtime error. */
  errorViews: number;
  /** The median of the visitor's page views' Web Vitals (null: none reported). */
  lcp: number | null;
  inp: number | null;
  cls: number | null;
}

export interface Estimate {
  /** Distinct visitors the figure is drawn from. */
  n: number;
  value: number;
  /** A two-sided interval at the policy's confidence (a one-sided bound each way). */
  low: number;
  high: number;
  /** The standard error of a mean (not given for a quantile, whose interval is from ranks). */
  se?: number;
}

export interface VersionSignals {
  visitors: number;
  views: number;
  /** Mean of the visitors' error rates, with its interval (normal approximation, unpooled variance). */
  errorRate: Estimate | null;
  lcp: Estimate | null;
  inp: Estimate | null;
  cls: Estimate | null;
}

/** The one-sided z of a confidence level (0.5 < c < 1), by Acklam's rational approximation of the probit. */
export function zOf(confidence: number): number {
  const p = confidence;
  const a = [
    -39.6968302866538, 220.946098424521, -275.928510446969, 138.357751867269, -30.6647980661472,
    2.50662827745924,
  ];
  const b = [-54.4760987982241, 161.585836858041, -155.698979859887, 66.8013118877197, -13.2806815528857];
  const c = [
    -0.00778489400243029, -0.322396458041136, -2.40075827716184, -2.54973253934373, 4.37466414146497,
    2.93816398269878,
  ];
  const d = [0.00778469570904146, 0.32246712907004, 2.445134137143, 3.75440866190742];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p > 0.97575) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The q-quantile of a sample with a distribution-free interval: the order statistics whose ranks lie z
 * binomial standard deviations either side of n·q (the standard interval for a quantile).
 */
export function quantileEstimate(values: readonly number[], q: number, z: number): Estimate | null {
  const n = values.length;
  if (n === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const at = (rank: number) => sorted[Math.min(n - 1, Math.max(0, rank))]!;
  const spread = z * Math.sqrt(n * q * (1 - q));
  return {
    n,
    value: at(Math.ceil(n * q) - 1),
    low: at(Math.floor(n * q - spread) - 1),
    high: at(Math.ceil(n * q + spread) - 1),
  };
}

/** The mean of per-visitor rates with a normal-approximation interval. */
export function meanEstimate(rates: readonly number[], z: number): Estimate | null {
  const n = rates.length;
  if (n === 0) return null;
  const mean = rates.reduce((sum, r) => sum + r, 0) / n;
  const variance = n > 1 ? rates.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (n - 1) : 0;
  const se = Math.sqrt(variance / n);
  return { n, value: mean, low: Math.max(0, mean - z * se), high: Math.min(1, mean + z * se), se };
}

export function versionSignals(visitors: readonly VisitorFigures[], confidence = 0.99): VersionSignals {
  const z = zOf(confidence);
  const vital = (kind: VitalKind) =>
    quantileEstimate(
      visitors.map((v) => v[kind]).filter((x): x is number => x !== null),
      0.75,
      z,
    );
  const viewed = visitors.filter((v) => v.views > 0);
  return {
    visitors: visitors.length,
    views: visitors.reduce((sum, v) => sum + v.views, 0),
    errorRate: meanEstimate(
      viewed.map((v) => Math.min(1, v.errorViews / v.views)),
      z,
    ),
    lcp: vital('lcp'),
    inp: vital('inp'),
    cls: vital('cls'),
  };
}

/**
 * One stored report: which visitor, from which address group (a pseudonym; null for reports stored before
 * tickets carried one), which page view (ticket), what kind, what value.
 */
export interface SignalRow {
  visitor: string;
  address: string | null;
  ticket: string;
  kind: HealthKind;
  value: number | null;
}

/**
 * At most this many visitors count per client address group (docs/decisions/0027-health-gate.md): an
 * office or a household behind one NAT weighs as five visitors, and a script minting visitors from one
 * address (every cookieless page view is a new one) cannot outweigh real visitors from elsewhere.
 */
export const ADDRESS_VISITOR_CAP = 5;

/** The visitors of one version over a window, after the cap per address group. */
export interface VisitorSample {
  visitors: VisitorFigures[];
  /** Distinct address groups among the reports (the null group of old reports counts as one). */
  addresses: number;
  /** Visitors left out because their address group already had ADDRESS_VISITOR_CAP. */
  overCap: number;
}

interface VisitorRows {
  views: Set<string>;
  errors: Set<string>;
  lcp: number[];
  inp: number[];
  cls: number[];
  /** The address groups the visitor's reports came from. */
  addresses: Set<string | null>;
}

/**
 * Which visitors count: each visitor belongs to one address group (the smallest pseudonym among theirs, so a
 * visitor whose reports came from two networks is not counted twice), and of each group the
 * ADDRESS_VISITOR_CAP visitors with the smallest pseudonyms count. Deterministic, so every read of the same
 * rows (the gate, the admin view, `rollout status`) counts the same visitors.
 */
function cappedVisitors(byVisitor: Map<string, VisitorRows>): Pick<VisitorSample, 'addresses' | 'overCap'> & {
  counted: VisitorRows[];
} {
  const groups = new Map<string | null, string[]>();
  for (const [visitor, v] of byVisitor) {
    const group = [...v.addresses].sort(compareAddress)[0] ?? null;
    const list = groups.get(group);
    if (list) list.push(visitor);
    else groups.set(group, [visitor]);
  }
  const counted: VisitorRows[] = [];
  for (const visitors of groups.values()) {
    visitors.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const visitor of visitors.slice(0, ADDRESS_VISITOR_CAP)) counted.push(byVisitor.get(visitor)!);
  }
  return { counted, addresses: groups.size, overCap: byVisitor.size - counted.length };
}

// Null (no address known) sorts last: a visitor also seen with a real address belongs to that one.
const compareAddress = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/** Stored reports of one version, per visitor, with at most ADDRESS_VISITOR_CAP visitors per address group. */
export function visitorSample(rows: Iterable<SignalRow>): VisitorSample {
  const byVisitor = new Map<string, VisitorRows>();
  for (const row of rows) {
    let v = byVisitor.get(row.visitor);
    if (!v) {
      v = { views: new Set(), errors: new Set(), lcp: [], inp: [], cls: [], addresses: new Set() };
      byVisitor.set(row.visitor, v);
    }
    v.views.add(row.ticket);
    v.addresses.add(row.address);
    if (isErrorKind(row.kind)) v.errors.add(row.ticket);
    else if (isVitalKind(row.kind) && row.value !== null) v[row.kind].push(row.value);
  }
  const { counted, addresses, overCap } = cappedVisitors(byVisitor);
  return {
    visitors: counted.map((v) => ({
      views: v.views.size,
      errorViews: v.errors.size,
      lcp: median(v.lcp),
      inp: median(v.inp),
      cls: median(v.cls),
    })),
    addresses,
    overCap,
  };
}

/** Stored reports of one version, per visitor, capped per address group (visitorSample's visitors). */
export function visitorFigures(rows: Iterable<SignalRow>): VisitorFigures[] {
  return visitorSample(rows).visitors;
}

/** A version's figures as plain numbers (what `rollout status` and the admin view show; null: no values). */
export interface SignalFigures {
  visitors: number;
  views: number;
  errorRate: number | null;
  lcp: number | null;
  inp: number | null;
  cls: number | null;
}

export function signalFigures(s: VersionSignals): SignalFigures {
  const value = (e: Estimate | null) => e?.value ?? null;
  return {
    visitors: s.visitors,
    views: s.views,
    errorRate: value(s.errorRate),
    lcp: value(s.lcp),
    inp: value(s.inp),
    cls: value(s.cls),
  };
}
