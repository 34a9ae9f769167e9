import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AUDIT_ACTIONS, type AuditEntry, AuditEntrySchema } from '@app/contracts';
import type { RemoteDeployment, RemotePackage } from '@app/rollout';
import * as v from 'valibot';

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a command says about one change; who, when and where are filled in by `auditEntry`. */
export interface AuditNote {
  action: AuditAction;
  remote: RemotePackage;
  reason?: string;
  forced?: boolean;
}

/** Who is acting: ROLLOUT_ACTOR (CI sets it to the pipeline or the person), else the OS user. */
export function actorOf(env: Record<string, string | undefined> = process.env): string {
  if (env.ROLLOUT_ACTOR?.trim()) return env.ROLLOUT_ACTOR.trim();
  try {
    return os.userInfo().username;
  } catch {
    return env.USER || env.USERNAME || 'unknown';
  }
}

/** A remote's state in words, as the audit log and `status` show it. */
export function describeDeployment(deployment: RemoteDeployment | undefined): string | null {
  if (!deployment) return null;
  const { stable, canary } = deployment;
  return canary ? `stable ${stable} · canary ${canary.version} at ${canary.percent} %` : `stable ${stable}`;
}

/** Builds and validates one audit line, so a bad line is refused before anything is written. */
export function auditEntry(
  note: AuditNote & { from: string | null; to: string | null },
  context: { environment: string; actor: string; at: Date },
): AuditEntry {
  const entry: AuditEntry = {
    at: context.at.toISOString(),
    actor: context.actor,
    environment: context.environment,
    action: note.action,
    remote: note.remote,
    from: note.from,
    to: note.to,
    ...(note.reason ? { reason: note.reason } : {}),
    ...(note.forced ? { forced: true } : {}),
  };
  return v.parse(AuditEntrySchema, entry);
}

/**
 * Appends the lines in one write (O_APPEND keeps concurrent writers' lines whole) and syncs, so an audit
 * line that was reported as written survives a crash.
 */
export function appendAudit(file: string, entries: AuditEntry[]): void {
  if (entries.length === 0) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a');
  try {
    fs.writeSync(fd, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
