import type { AuditEntry } from '@app/contracts';
import type { CompatConflict, Compatibility, CompatRow } from '@app/contracts/compatibility';
import {
  type Canary,
  DEFAULT_GATE,
  formatSignalValue,
  type GateAnswer,
  gateNow,
  REMOTE_PACKAGES,
  type RemotePackage,
  type SignalFigures,
  signalFigures,
  versionSignals,
} from '@app/rollout';
import type { RolloutContext } from './context';
import { gateReader, type HealthSource } from './health';

/** `rollout status` and `rollout history`: the data (for --json) and its text form. */
/** Distinct visitors and their page views, the mean of their error rates, the p75s of their Web Vitals. */
export interface VersionHealth extends SignalFigures {
  version: string;
  track: 'stable' | 'canary';
  /** Counted from here on (the canary's start, so both tracks cover the same time); null: all retained. */
  since: string | null;
}

export interface RemoteStatus {
  remote: RemotePackage;
  stable: string | null;
  canary: Canary | null;
  previous: string[];
  health: VersionHealth[];
  /** Why this remote's health could not be read (a token scoped to other remotes, say); null when it was. */
  healthError: string | null;
  /**
   * With a canary: what the gate would decide now (@app/rollout gateNow, the default policy: the rule
   * `rollout watch` acts on), `inconclusive` included; null without a canary or when it could not be read.
   */
  gate: { answer: GateAnswer; reason: string } | null;
}

export interface StatusReport {
  environment: string;
  revision: number;
  updatedAt: string | null;
  remotes: RemoteStatus[];
  /** Every live remote version against the live shell (issue 45); null when it could not be read. */
  compatibility: Compatibility | null;
  /** Why the table could not be read (an API older than it, a token it refuses); null when it was. */
  compatibilityError: string | null;
}

async function healthOf(
  source: HealthSource,
  remote: RemotePackage,
  version: string,
  track: VersionHealth['track'],
  since?: string,
) {
  // The figures are computed here, from the API's per-visitor rows, exactly as `watch` judges them.
  const signals = versionSignals(await source.visitors(remote, version, since ? new Date(since) : undefined));
  return { version, track, since: since ?? null, ...signalFigures(signals) };
}

export async function statusReport(ctx: RolloutContext, health: HealthSource | null): Promise<StatusReport> {
  const state = await ctx.client.state();
  const remotes: RemoteStatus[] = [];
  for (const remote of REMOTE_PACKAGES) {
    const d = state.manifest.remotes[remote];
    const rows: VersionHealth[] = [];
    let healthError: string | null = null;
    if (d && health) {
      try {
        rows.push(await healthOf(health, remote, d.stable, 'stable', d.canary?.startedAt));
        if (d.canary)
          rows.push(await healthOf(health, remote, d.canary.version, 'canary', d.canary.startedAt));
      } catch (error) {
        healthError = (error as Error).message;
        rows.length = 0;
      }
    }
    let gate: RemoteStatus['gate'] = null;
    if (d?.canary && health && !healthError) {
      try {
        const decision = await gateNow(gateReader(health, remote), d.stable, d.canary, DEFAULT_GATE);
        gate = { answer: decision.answer, reason: decision.reason };
      } catch (error) {
        healthError = `the gate: ${(error as Error).message}`;
      }
    }
    remotes.push({
      remote,
      stable: d?.stable ?? null,
      canary: d?.canary ?? null,
      previous: d?.previous ?? [],
      health: rows,
      healthError,
      gate,
    });
  }
  // The table is extra: whatever keeps it from being read is said under it, never fails the status.
  let compatibility: Compatibility | null = null;
  let compatibilityError: string | null = null;
  try {
    compatibility = await ctx.client.compatibility(state.environment);
    if (!compatibility)
      compatibilityError = `the deploy API at ${ctx.client.target.url} has no compatibility table (it is older than issue 45)`;
  } catch (error) {
    compatibilityError = (error as Error).message;
  }
  return {
    environment: state.environment,
    revision: state.revision,
    updatedAt: state.revision === 0 ? null : state.updatedAt,
    remotes,
    compatibility,
    compatibilityError,
  };
}

const time = (iso: string) => iso.replace('T', ' ').slice(0, 19);

function healthText(row: VersionHealth | undefined): string {
  if (!row) return '';
  const parts = [`${row.visitors} visitors, ${row.views} page views`];
  if (row.errorRate !== null) parts.push(`errors ${formatSignalValue('errors', row.errorRate)}`);
  for (const signal of ['lcp', 'inp', 'cls'] as const) {
    const value = row[signal];
    if (value !== null) parts.push(`${signal.toUpperCase()} p75 ${formatSignalValue(signal, value)}`);
  }
  return `  ${parts.join(', ')}`;
}

/** The gate's answer first ("inconclusive: not enough visitors…", "rollback: server render failures…"). */
const gateText = (gate: NonNullable<RemoteStatus['gate']>) =>
  gate.reason.startsWith(gate.answer) ? gate.reason : `${gate.answer}: ${gate.reason}`;

export function formatStatus(report: StatusReport): string {
  const lines = [
    `deployment "${report.environment}" · revision ${report.revision}${report.updatedAt ? ` · updated ${time(report.updatedAt)} UTC` : ' (nothing deployed yet)'}`,
  ];
  for (const r of report.remotes) {
    if (!r.stable) {
      lines.push(`${r.remote}: not deployed`);
      continue;
    }
    const find = (track: string) => r.health.find((h) => h.track === track);
    lines.push(`${r.remote}`);
    lines.push(`  stable   ${r.stable}${healthText(find('stable'))}`);
    if (r.canary) {
      const c = r.canary;
      lines.push(
        `  canary   ${c.version} at ${c.percent} % since ${time(c.startedAt)} UTC${healthText(find('canary'))}`,
      );
      if (c.stepStartedAt !== c.startedAt)
        lines.push(`           this step since ${time(c.stepStartedAt)} UTC`);
      if (r.health.length > 0) lines.push('           (health of both tracks since the canary started)');
      if (r.gate) lines.push(...wrap(gateText(r.gate), '  gate     ', '           '));
    }
    if (r.healthError) lines.push(`  health: unavailable (${r.healthError})`);
    if (r.previous.length > 0)
      lines.push(`  previous ${r.previous.slice(0, 3).join(', ')}${r.previous.length > 3 ? ', …' : ''}`);
  }
  lines.push('', ...formatCompatibility(report.compatibility, report.compatibilityError));
  return lines.join('\n');
}

/** The width the compatibility table keeps to (a terminal of 100 columns). */
export const STATUS_WIDTH = 100;

/** `text` broken at spaces into lines of at most `width`, the first after `first`, the others after `rest`. */
export function wrap(text: string, first: string, rest: string, width = STATUS_WIDTH): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += `${empty ? '' : ' '}${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

const STATUS_WORDS = { ok: 'ok', conflict: 'CONFLICT', unknown: 'unknown' } as const;
const COL = '            ';

function conflictLines(c: CompatConflict): string[] {
  const what = `${c.package}${c.export ? ` ${c.export}` : ''}`;
  return [
    ...wrap(`${c.kind} ${what}: ${c.detail}`, `${COL}- `, `${COL}  `),
    ...wrap(`needed by ${c.needs}; provided by ${c.provider}`, `${COL}  `, `${COL}  `),
  ];
}

function rowLines(row: CompatRow): string[] {
  const head = `  ${STATUS_WORDS[row.status].padEnd(10)}${row.package}`;
  const both = `${head}  requires ${row.required} · provided ${row.provided}`;
  const lines =
    both.length <= STATUS_WIDTH
      ? [both]
      : [
          head,
          ...wrap(row.required, `${COL}requires `, `${COL}         `),
          ...wrap(row.provided, `${COL}provided `, `${COL}         `),
        ];
  for (const conflict of row.conflicts) lines.push(...conflictLines(conflict));
  return lines;
}

/**
 * The environment's compatibility table for a terminal: per live remote version, its ok packages on one line
 * and every conflict or unknown row in full, with each conflict's who-needs-what-from-whom.
 */
export function formatCompatibility(table: Compatibility | null, error: string | null = null): string[] {
  if (!table) return [`compatibility: unavailable (${error ?? 'not read'})`];
  const runtime = table.shell.federationRuntime ?? 'unreadable';
  const lines = [
    `compatibility in "${table.environment}" with the live shell (federation runtime ${runtime})`,
    ...wrap(table.shell.manifest, '  shell manifest ', '  '),
  ];
  if (table.rows.length === 0) {
    lines.push('  no live remote versions');
    return lines;
  }
  const groups = new Map<string, CompatRow[]>();
  for (const row of table.rows) {
    const key = `${row.remote} ${row.version} (${row.track})`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const conflicts = table.rows.filter((r) => r.status === 'conflict').length;
  const unknown = table.rows.filter((r) => r.status === 'unknown').length;
  for (const [key, rows] of groups) {
    lines.push(key);
    const ok = rows.filter((r) => r.status === 'ok').map((r) => r.package);
    if (ok.length > 0) lines.push(...wrap(ok.join(', '), `  ${'ok'.padEnd(10)}`, COL));
    for (const row of rows) if (row.status !== 'ok') lines.push(...rowLines(row));
  }
  lines.push(
    conflicts + unknown === 0
      ? `every live version is compatible (${table.rows.length} checks)`
      : `${conflicts} conflict(s), ${unknown} unknown, of ${table.rows.length} checks`,
  );
  return lines;
}

export async function history(ctx: RolloutContext, remote: RemotePackage, limit?: number) {
  return ctx.client.history(remote, limit);
}

export function formatHistory(remote: RemotePackage, entries: AuditEntry[]): string {
  if (entries.length === 0) return `no audit entries for ${remote} yet`;
  return entries
    .map((e) => {
      // A row that starts nothing's state (a release, a link made or opened) says what it made.
      const change = e.from === null ? (e.to ?? '(none)') : `${e.from} → ${e.to ?? '(none)'}`;
      const extra = `${e.forced ? ' [forced]' : ''}${e.reason ? ` (${e.reason})` : ''}`;
      return `${time(e.at)}  ${e.actor}  ${e.action}: ${change}${extra}`;
    })
    .join('\n');
}
