import fs from 'node:fs';

/**
 * A file read again only when it changed (its inode, size or modification time): one stat per call, so a
 * rollout (written by rename) or an edit of config.json reaches the very next request of every edge
 * instance, with no restart and no polling. `parse` validates; a file that does not parse keeps the last
 * good value (reported through `onError` once per change), so a bad edit never breaks a page.
 */
export function watchedFile<T>(
  file: string,
  parse: (text: string) => T,
  onError: (error: unknown) => void,
): () => T | null {
  let stamp = '';
  let value: T | null = null;
  return () => {
    let now: string;
    try {
      const stat = fs.statSync(file);
      now = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      now = 'missing';
    }
    if (now === stamp) return value;
    stamp = now;
    if (now === 'missing') {
      value = null;
      return value;
    }
    try {
      value = parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      onError(error);
    }
    return value;
  };
}
