/**
 * A limit as operators write it: `<count>/<window>`, e.g. `10/1h`, `30/1m`, `5/500ms`
 * (units ms, s, m, h, d). One variable per limit keeps the count and its window together.
 */
export interface LimitSpec {
  limit: number;
  windowMs: number;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseLimitSpec(key: string, raw: string): LimitSpec {
  const m = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})?\s*(ms|s|m|h|d)\s*$/.exec(raw);
  if (!m?.[1] || !m[3]) {
    throw new Error(
      `Invalid configuration: ${key} must look like <count>/<window>, e.g. 10/1h or 30/1m, got "${raw}"`,
    );
  }
  return { limit: Number(m[1]), windowMs: Number(m[2] ?? 1) * (UNIT_MS[m[3]] ?? 1) };
}

export function formatLimitSpec({ limit, windowMs }: LimitSpec): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const ms = UNIT_MS[unit] ?? 1;
    if (windowMs % ms === 0) return `${limit}/${windowMs / ms}${unit}`;
  }
  return `${limit}/${windowMs}ms`;
}
