import { isRemotePackage, isVersionId, REMOTE_PACKAGES, type RemotePackage } from '@app/rollout';
import { RolloutError } from './errors';

/** Parsers for command-line values: each refuses bad input with a message that names the option and value. */

export function parseRemote(value: string | undefined): RemotePackage {
  if (!value) throw new RolloutError(`name a remote: ${REMOTE_PACKAGES.join(', ')}`);
  if (!isRemotePackage(value)) {
    throw new RolloutError(`unknown remote "${value}"; valid remotes: ${REMOTE_PACKAGES.join(', ')}`);
  }
  return value;
}

export function parseVersion(value: string | undefined): string {
  if (!value) throw new RolloutError('name a version id (like 1.0.0-3fa2b1c9d0)');
  if (!isVersionId(value))
    throw new RolloutError(`"${value}" is not a release version id (like 1.0.0-3fa2b1c9d0)`);
  return value;
}

export function parsePercent(value: string | undefined): number {
  if (value === undefined) throw new RolloutError('--percent is required (a whole number from 0 to 100)');
  const n = /^\d{1,3}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 100) {
    throw new RolloutError(`--percent must be a whole number from 0 to 100, got "${value}"`);
  }
  return n;
}

export function parsePositiveInt(value: string, option: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new RolloutError(`${option} must be a whole number of 1 or more, got "${value}"`);
  return n;
}

export function parseNonNegativeInt(value: string, option: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n))
    throw new RolloutError(`${option} must be a whole number of 0 or more, got "${value}"`);
  return n;
}

/** Seconds or hours; fractions allowed (`--interval 0.5`), zero and negatives are not. */
export function parsePositiveNumber(value: string, option: string): number {
  const n = /^\d*\.?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0)
    throw new RolloutError(`${option} must be a positive number, got "${value}"`);
  return n;
}

export function parseRate(value: string, option: string): number {
  const n = /^\d*\.?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new RolloutError(`${option} must be a fraction from 0 to 1 (0.02 = 2 points), got "${value}"`);
  }
  return n;
}

/** `1,10,50,100`: rising percentages, each 1-100. */
export function parseSteps(value: string): number[] {
  const steps = value.split(',').map((part) => {
    const n = /^\d{1,3}$/.test(part.trim()) ? Number(part) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > 100) {
      throw new RolloutError(
        `--steps must be rising whole percentages from 1 to 100 (like 1,10,50,100), got "${value}"`,
      );
    }
    return n;
  });
  if (steps.some((step, i) => i > 0 && step <= (steps[i - 1] as number))) {
    throw new RolloutError(
      `--steps must be rising whole percentages from 1 to 100 (like 1,10,50,100), got "${value}"`,
    );
  }
  return steps;
}
