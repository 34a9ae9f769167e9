// What the edge and a render worker say to each other (docs/decisions/0036-render-sandbox.md): one JSON
// object per line, requests on the worker's stdin, answers on its fd 3 (so what the release's code prints on
// stdout or stderr never mixes with them). Shared by both sides; the edge treats every answer as the
// untrusted output it is: parsed with a size limit, checked field by field.

/** The worker's answer channel: fd 3 of the worker process. */
export const ANSWER_FD = 3;

/** The longest line the edge reads from a worker: a larger answer kills the worker (a render is ~100 KB). */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export type WorkerRequest =
  | { id: number; op: 'requests'; path: string }
  | { id: number; op: 'render'; path: string; primed: Record<string, unknown> };

export type WorkerAnswer =
  | { ready: true }
  | { ready: false; error: string }
  | { id: number; ok: true; keys: unknown }
  | { id: number; ok: true; page: unknown }
  | { id: number; ok: false; error: string };

/**
 * Splits a byte stream into lines, refusing any line longer than `max` bytes (the callback gets an error
 * and nothing more is read). Returns the function to feed chunks to.
 */
export function lineReader(
  max: number,
  onLine: (line: string) => void,
  onTooLong: () => void,
): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let size = 0;
  let dead = false;
  return (chunk) => {
    if (dead) return;
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, i);
      if (size + piece.length > max) {
        dead = true;
        onTooLong();
        return;
      }
      parts.push(piece);
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      size = 0;
      start = i + 1;
      if (line) onLine(line);
    }
    const rest = chunk.subarray(start);
    if (size + rest.length > max) {
      dead = true;
      onTooLong();
      return;
    }
    if (rest.length) {
      parts.push(rest);
      size += rest.length;
    }
  };
}
