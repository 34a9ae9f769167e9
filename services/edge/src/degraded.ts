/**
 * Where the edge says it served less than it could (docs/decisions/0026-edge.md): a release whose renderer
 * does not start or render, a pre-rendered file that cannot be read, a config.json or deployment manifest
 * that does not validate. Each kind of trouble is logged once per release and path (not once per visitor),
 * and counted; `GET /_edge/status` shows the counts to the operator. The list is bounded (a release that
 * fails on every path of a crawl must not grow it without end): past MAX_ENTRIES the entry seen longest ago
 * goes, and paths and messages are cut to a readable length.
 */
export const MAX_ENTRIES = 200;
const MAX_PATH = 200;
const MAX_MESSAGE = 500;

export interface DegradedEntry {
  kind: string;
  /** `<remote>@<version>`, or the file concerned. */
  subject: string;
  path: string | null;
  count: number;
  firstAt: string;
  lastAt: string;
  error: string;
}

export class DegradedLog {
  private readonly entries = new Map<string, DegradedEntry>();

  constructor(private readonly log: (line: string) => void = (line) => console.warn(line)) {}

  note(kind: string, subject: string, fullPath: string | null, error: unknown): void {
    const path = fullPath === null ? null : fullPath.slice(0, MAX_PATH);
    const key = `${kind}\n${subject}\n${path ?? ''}`;
    const at = new Date().toISOString();
    const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE);
    const entry = this.entries.get(key);
    if (entry) {
      entry.count += 1;
      entry.lastAt = at;
      entry.error = message;
      this.entries.delete(key); // most recently seen last
      this.entries.set(key, entry);
      return;
    }
    this.entries.set(key, { kind, subject, path, count: 1, firstAt: at, lastAt: at, error: message });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.log(`edge degraded: ${kind} ${subject}${path ? ` ${path}` : ''}: ${message}`);
  }

  /** Most recently seen first. */
  list(): DegradedEntry[] {
    return [...this.entries.values()].reverse();
  }
}
