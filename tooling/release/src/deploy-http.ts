// The deploy API over HTTP for the rollout CLI (DeployClient, deploy-client.ts): the requests, their retries,
// and a refusal read into a DeployApiError with the server's own words.
import { setTimeout as delay } from 'node:timers/promises';
import { type CompatConflict, CompatConflictSchema } from '@app/contracts/compatibility';
import ky, { type KyResponse, type Options } from 'ky';
import * as v from 'valibot';
import type { DeployTarget } from './deploy-target';
import { RolloutError } from './errors';

/** A refusal of the deploy API: the server's own text, its status, and (412) the revision it is at now. */
export class DeployApiError extends RolloutError {
  constructor(
    message: string,
    readonly status: number,
    readonly revision: number | null = null,
    /** Extra lines the server sent (an older API's 409 upload: its conflicts as lines). */
    readonly details: string[] = [],
    /** A compatibility refusal's conflicts (409 CompatRefusal): its `error` already says them in words. */
    readonly conflicts: CompatConflict[] = [],
  ) {
    super(details.length > 0 ? [message, ...details.map((line) => `  - ${line}`)].join('\n') : message);
  }
}

/**
 * A refusal's body. `conflicts` is lines of text from an API older than issue 45 (the message is a heading
 * and they are printed under it), or CompatConflict objects from a newer one (CompatRefusal: its `error` is
 * the whole message, ways forward included, so it is printed alone and the objects are kept for callers).
 */
const ErrorBody = v.object({
  error: v.optional(v.string()),
  revision: v.optional(v.number()),
  conflicts: v.optional(v.union([v.array(v.string()), v.array(CompatConflictSchema)])),
});

/** A connection that was never made: nothing of the request reached the server, so sending again is safe. */
export const neverConnected = (error: unknown) =>
  error instanceof TypeError &&
  ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(String((error.cause as { code?: string })?.code));

/**
 * The deploy API's transport (ky), what every call of DeployClient goes through. Every answer is checked
 * against the contract's schema it is read with; every refusal becomes a DeployApiError with the server's
 * words. GETs are retried by ky on network errors and 5xx; a POST or PUT is sent again only when its
 * connection was refused, i.e. before any byte left: a change must never be applied twice because an
 * answer got lost.
 */
export class DeployHttp {
  constructor(readonly target: DeployTarget) {}

  get environment(): string {
    return this.target.environment;
  }

  protected headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      accept: 'application/json',
      ...(this.target.token ? { authorization: `Bearer ${this.target.token}` } : {}),
      ...extra,
    };
  }

  protected async send(method: string, path: string, options: Options, idempotent: boolean) {
    const url = `${this.target.url}${path}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await ky(url, {
          method,
          throwHttpErrors: false,
          retry: idempotent ? { limit: 2, methods: ['get'], backoffLimit: 1000 } : 0,
          timeout: 30_000,
          ...options,
          headers: this.headers(options.headers as Record<string, string> | undefined),
        });
      } catch (error) {
        if (!idempotent && attempt < 3 && neverConnected(error)) {
          await delay(250 * attempt);
          continue;
        }
        throw this.unreachable(error);
      }
    }
  }

  protected unreachable(error: unknown): RolloutError {
    if (error instanceof RolloutError) return error;
    const code = (error as { cause?: { code?: string } })?.cause?.code;
    const why = code && code !== 'ECONNREFUSED' ? ` (${code})` : '';
    if (error instanceof TypeError || (error as Error)?.name === 'TimeoutError')
      return new RolloutError(
        `cannot reach the deploy API at ${this.target.url}${why || ((error as Error).name === 'TimeoutError' ? ' (timed out)' : '')} (is the API running? pass --to <url>)`,
      );
    return new RolloutError(`the deploy API call failed: ${(error as Error)?.message ?? String(error)}`);
  }

  /** The answer's body checked against `schema`; a refusal thrown with the server's words. */
  protected async read<T>(
    response: KyResponse,
    schema: v.GenericSchema<unknown, T>,
    what: string,
  ): Promise<T> {
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {}
    if (!response.ok) throw this.refusal(response.status, body, text);
    const parsed = v.safeParse(schema, body);
    if (!parsed.success) {
      throw new RolloutError(
        `the deploy API at ${this.target.url} answered ${what} with something unexpected: ${v.summarize(parsed.issues).split('\n')[0]}`,
      );
    }
    return parsed.output;
  }

  protected refusal(status: number, body: unknown, text: string): DeployApiError {
    const parsed = v.safeParse(ErrorBody, body);
    const server = parsed.success ? parsed.output : {};
    const said = server.error ?? (text.trim().slice(0, 200) || `HTTP ${status}`);
    if (status === 401)
      return new DeployApiError(
        `the deploy token is missing, unknown or revoked (${this.target.tokenSource})`,
        status,
      );
    if (status === 412) {
      const revision = server.revision ?? null;
      return new DeployApiError(
        `the deployment changed meanwhile: it is at revision ${revision ?? '?'} now; look (pnpm rollout status) and try again`,
        status,
        revision,
      );
    }
    const conflicts = server.conflicts ?? [];
    const lines = conflicts.filter((c): c is string => typeof c === 'string');
    const objects = conflicts.filter((c): c is CompatConflict => typeof c !== 'string');
    return new DeployApiError(said, status, server.revision ?? null, lines, objects);
  }

  protected async get<T>(path: string, schema: v.GenericSchema<unknown, T>, what: string) {
    return this.read(await this.send('GET', path, {}, true), schema, what);
  }
}
