import type { AuditEntry } from '@app/contracts';
import {
  type Canary,
  formatSignalValue,
  REMOTE_PACKAGES,
  type RemotePackage,
  type SignalFigures,
  signalFigures,
  versionSignals,
} from '@app/rollout';
import type { RolloutContext } from './context';
import type { HealthSource } from './health';

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
}

export interface StatusReport {
  environment: string;
  revision: number;
  updatedAt: string | null;
  remotes: RemoteStatus[];
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
    remotes.push({
      remote,
      stable: d?.stable ?? null,
      canary: d?.canary ?? null,
      previous: d?.previous ?? [],
      health: rows,
      healthError,
    });
  }
  return {
    environment: state.environment,
    revision: state.revision,
    updatedAt: state.revision === 0 ? null : state.updatedAt,
    remotes,
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
    }
    if (r.healthError) lines.push(`  health: unavailable (${r.healthError})`);
    if (r.previous.length > 0)
      lines.push(`  previous ${r.previous.slice(0, 3).join(', ')}${r.previous.length > 3 ? ', …' : ''}`);
  }
  return lines.join('\n');
}

export async function history(ctx: RolloutContext, remote: RemotePackage, limit?: number) {
  return ctx.client.history(remote, limit);
}

export function formatHistory(remote: RemotePackage, entries: AuditEntry[]): string {
  if (entries.length === 0) return `no audit entries for ${remote} yet`;
  return entries
    .map((e) => {
      const change = `${e.from ?? '(none)'} → ${e.to ?? '(none)'}`;
      const extra = `${e.forced ? ' [forced]' : ''}${e.reason ? ` (${e.reason})` : ''}`;
      return `${time(e.at)}  ${e.actor}  ${e.action}: ${change}${extra}`;
    })
    .join('\n');
}
