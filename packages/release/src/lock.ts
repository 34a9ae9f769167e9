import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RolloutError } from './errors';

/**
 * One writer per environment: the lock is a file created exclusively holding the writer's pid, time and a
 * random token. A lock whose process is gone (a crash, a killed terminal) is stale and taken over; a live
 * one makes the command fail at once with who holds it, rather than queue behind a `watch` for minutes.
 */
interface LockContent {
  pid: number;
  at: string;
  token: string;
}

/** A lock file unreadable this long after it was created was torn by a crash (or written by hand). */
const UNREADABLE_STALE_MS = 10_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContent | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockContent>;
    if (typeof parsed.pid === 'number' && typeof parsed.at === 'string' && typeof parsed.token === 'string') {
      return parsed as LockContent;
    }
  } catch {
    // empty (just created), torn or gone: the caller decides by age
  }
  return null;
}

/** The lock is someone else's: a command fails with it; `watch` tries again on its next tick. */
export class LockHeldError extends RolloutError {}

function heldError(environment: string, holder: LockContent | null): LockHeldError {
  const who = holder
    ? `pid ${holder.pid}, since ${new Date(holder.at).toTimeString().slice(0, 8)}`
    : 'pid unknown';
  return new LockHeldError(
    `another rollout command is changing the "${environment}" deployment (${who}); try again when it has finished`,
  );
}

/** Removes a stale lock only if it is still the one judged stale (another process may have replaced it). */
function removeStale(file: string, stale: LockContent | null): void {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // someone else removed it first
  }
  const moved = readLock(aside);
  if (stale && moved?.token !== stale.token) {
    // We moved a fresh lock taken meanwhile: put it back (link fails if a third writer got in, then theirs stands).
    try {
      fs.linkSync(aside, file);
    } catch {}
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Creates `file` only if it does not exist, already holding `content`. An O_EXCL create followed by a write
 * lets another process read the lock empty in between (seen with six commands at once: "pid unknown"), so
 * the content is written to a private file first and hard-linked into place, which fails atomically with
 * EEXIST just like O_EXCL. File systems without hard links fall back to O_EXCL.
 */
function createExclusive(file: string, content: string): boolean {
  const own = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.new`;
  fs.writeFileSync(own, content, { flag: 'wx' });
  try {
    fs.linkSync(own, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
  } finally {
    fs.rmSync(own, { force: true });
  }
  try {
    fs.writeFileSync(file, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes the lock or throws the "another rollout command" error; returns the function that releases it. */
export function acquireLock(file: string, environment: string): () => void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mine: LockContent = {
    pid: process.pid,
    at: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusive(file, JSON.stringify(mine))) {
      return () => {
        // Only our own lock: never remove one a stale-lock takeover has given to someone else.
        if (readLock(file)?.token === mine.token) fs.rmSync(file, { force: true });
      };
    }
    const holder = readLock(file);
    if (holder && isAlive(holder.pid)) throw heldError(environment, holder);
    if (!holder) {
      let age = 0;
      try {
        age = Date.now() - fs.statSync(file).mtimeMs;
      } catch {
        continue; // released meanwhile: try again
      }
      if (age < UNREADABLE_STALE_MS) throw heldError(environment, null);
    }
    removeStale(file, holder);
  }
  throw heldError(environment, readLock(file));
}

export function withLock<T>(file: string, environment: string, work: () => T): T {
  const release = acquireLock(file, environment);
  try {
    return work();
  } finally {
    release();
  }
}
