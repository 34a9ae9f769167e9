/**
 * Where the edge says it served less than it could (docs/decisions/0026-edge.md): a release whose renderer
 * does not import or render, a pre-rendered file that cannot be read, a config.json or deployment manifest
 * that does not validate. Each kind of trouble is logged once per release and path (not once per visitor),
 * and counted; `GET /_edge/status` shows the counts to the operator.
 */
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

  note(kind: string, subject: string, path: string | null, error: unknown): void {
    const key = `${kind}\n${subject}\n${path ?? ''}`;
    const at = new Date().toISOString();
    const message = error instanceof Error ? error.message : String(error);
    const entry = this.entries.get(key);
    if (entry) {
      entry.count += 1;
      entry.lastAt = at;
      entry.error = message;
      return;
    }
    this.entries.set(key, { kind, subject, path, count: 1, firstAt: at, lastAt: at, error: message });
    this.log(`edge degraded: ${kind} ${subject}${path ? ` ${path}` : ''}: ${message}`);
  }

  list(): DegradedEntry[] {
    return [...this.entries.values()];
  }
}
