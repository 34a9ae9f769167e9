import { setTimeout as delay } from 'node:timers/promises';
import {
  type CompatConflict,
  CompatConflictSchema,
  type Compatibility,
  CompatibilitySchema,
  type ShellCheckRequest,
  type ShellCheckResult,
  ShellCheckResultSchema,
} from '@app/contracts/compatibility';
import {
  type DEPLOY_BODIES,
  DEPLOY_PATHS,
  type DeployChangeResult,
  DeployChangeResultSchema,
  DeployEnvironmentsSchema,
  type DeployHealth,
  DeployHealthSchema,
  DeployHistorySchema,
  type DeployOverride,
  DeployOverrideSchema,
  type DeployPreview,
  type DeployPreviewList,
  DeployPreviewListSchema,
  DeployPreviewSchema,
  type DeployRenders,
  DeployRendersSchema,
  type DeployState,
  DeployStateSchema,
  type DeployTokenScope,
  DeployTokenScopeSchema,
  type DeployVerb,
  type OverrideLink,
  OverrideLinkSchema,
  type PreviewLink,
  PreviewLinkSchema,
  ReleaseListSchema,
  type ReleaseUploadResult,
  ReleaseUploadResultSchema,
} from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
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

export type VerbBody<V extends DeployVerb> = v.InferInput<(typeof DEPLOY_BODIES)[V]>;

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
const neverConnected = (error: unknown) =>
  error instanceof TypeError &&
  ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(String((error.cause as { code?: string })?.code));

/**
 * The deploy API over HTTP (ky). Every answer is checked against the contract's schemas; every refusal
 * becomes a DeployApiError with the server's words. GETs are retried by ky on network errors and 5xx; a
 * POST or PUT is sent again only when its connection was refused, i.e. before any byte left: a change
 * must never be applied twice because an answer got lost.
 */
export class DeployClient {
  constructor(readonly target: DeployTarget) {}

  get environment(): string {
    return this.target.environment;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      accept: 'application/json',
      ...(this.target.token ? { authorization: `Bearer ${this.target.token}` } : {}),
      ...extra,
    };
  }

  private async send(method: string, path: string, options: Options, idempotent: boolean) {
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

  private unreachable(error: unknown): RolloutError {
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
  private async read<T>(response: KyResponse, schema: v.GenericSchema<unknown, T>, what: string): Promise<T> {
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

  private refusal(status: number, body: unknown, text: string): DeployApiError {
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

  private async get<T>(path: string, schema: v.GenericSchema<unknown, T>, what: string) {
    return this.read(await this.send('GET', path, {}, true), schema, what);
  }

  async environments() {
    return this.get(DEPLOY_PATHS.environments, DeployEnvironmentsSchema, 'the environments');
  }

  async tokenScope(): Promise<DeployTokenScope> {
    return this.get(DEPLOY_PATHS.token, DeployTokenScopeSchema, 'the token check');
  }

  /** The environment's state; its revision is what the next change must name in If-Match. */
  async state(environment = this.environment): Promise<DeployState> {
    const response = await this.send('GET', DEPLOY_PATHS.environment(environment), {}, true);
    const state = await this.read(response, DeployStateSchema, `environment "${environment}"`);
    const etag = Number(response.headers.get('etag')?.replace(/^W\//, '').replace(/"/g, ''));
    return Number.isInteger(etag) ? { ...state, revision: etag } : state;
  }

  /** One change, applied only if the deployment is still at `revision` (else 412). */
  async command<V extends DeployVerb>(
    remote: RemotePackage,
    verb: V,
    body: VerbBody<V>,
    revision: number,
    environment = this.environment,
  ): Promise<DeployChangeResult> {
    const response = await this.send(
      'POST',
      DEPLOY_PATHS.command(environment, remote, verb),
      { json: body, headers: { 'if-match': `"${revision}"` } },
      false,
    );
    return this.read(response, DeployChangeResultSchema, `${verb} ${remote}`);
  }

  async history(remote: RemotePackage, limit?: number, environment = this.environment) {
    const query = limit === undefined ? '' : `?limit=${limit}`;
    return this.get(
      `${DEPLOY_PATHS.history(environment, remote)}${query}`,
      DeployHistorySchema,
      'the history',
    );
  }

  async health(
    remote: RemotePackage,
    version: string,
    since?: Date,
    environment = this.environment,
  ): Promise<DeployHealth> {
    const query = new URLSearchParams({ version, ...(since ? { since: since.toISOString() } : {}) });
    return this.get(`${DEPLOY_PATHS.health(environment, remote)}?${query}`, DeployHealthSchema, 'health');
  }

  /** The edges' server renders of one version over a window (the gate's server signals, issue 48). */
  async renders(
    remote: RemotePackage,
    version: string,
    since?: Date,
    environment = this.environment,
  ): Promise<DeployRenders> {
    const query = new URLSearchParams({ version, ...(since ? { since: since.toISOString() } : {}) });
    return this.get(`${DEPLOY_PATHS.renders(environment, remote)}?${query}`, DeployRendersSchema, 'renders');
  }

  /** A new preview link in the environment; its token is in the answer, and nowhere else. */
  async preview(
    remote: RemotePackage,
    body: { version: string; hours?: number; baseUrl?: string },
    environment = this.environment,
  ): Promise<PreviewLink> {
    const response = await this.send(
      'POST',
      DEPLOY_PATHS.preview(environment, remote),
      { json: body },
      false,
    );
    return this.read(response, PreviewLinkSchema, 'the preview');
  }

  /** The environment's preview links (of `remote` when given; else of every remote the token may change). */
  async previews(remote?: RemotePackage, environment = this.environment): Promise<DeployPreviewList> {
    const query = remote ? `?${new URLSearchParams({ remote })}` : '';
    return this.get(`${DEPLOY_PATHS.previews(environment)}${query}`, DeployPreviewListSchema, 'the previews');
  }

  /** Revokes a preview link (revoking it again answers the same). */
  async revokePreview(id: string, environment = this.environment): Promise<DeployPreview> {
    const path = DEPLOY_PATHS.previewLink(environment, encodeURIComponent(id));
    return this.read(await this.send('DELETE', path, {}, false), DeployPreviewSchema, 'the revocation');
  }

  /** A new dev override link (issue 47); its token is in the answer, and nowhere else. */
  async override(
    remote: RemotePackage,
    body: { url: string; hours?: number; baseUrl?: string },
  ): Promise<OverrideLink> {
    const path = DEPLOY_PATHS.override(this.environment, remote);
    return this.read(
      await this.send('POST', path, { json: body }, false),
      OverrideLinkSchema,
      'the override',
    );
  }

  /** Revokes a dev override link (revoking it again answers the same). */
  async revokeOverride(id: string): Promise<DeployOverride> {
    const path = DEPLOY_PATHS.overrideLink(this.environment, encodeURIComponent(id));
    return this.read(await this.send('DELETE', path, {}, false), DeployOverrideSchema, 'the revocation');
  }

  /**
   * The environment's compatibility table (issue 45); null when the API does not know the path (404: an
   * API older than the table), so a caller can say so instead of failing.
   */
  async compatibility(environment = this.environment): Promise<Compatibility | null> {
    const response = await this.send('GET', DEPLOY_PATHS.compatibility(environment), {}, true);
    if (response.status !== 404) return this.read(response, CompatibilitySchema, 'the compatibility table');
    // The API's catch-all answers {"error":"Not found"}; a 404 with words of its own (an unknown
    // environment) is a refusal like any other.
    const text = await response.text();
    let said: unknown;
    try {
      said = (JSON.parse(text) as { error?: unknown }).error;
    } catch {}
    if (said === undefined || said === 'Not found') return null;
    throw this.refusal(404, { error: said }, text);
  }

  /**
   * A shell build (its mf-manifest.json and mf-compat.json, parsed) checked against every environment's live
   * remote versions before it ships. A refusal (409 CompatRefusal) is thrown as a DeployApiError whose
   * message is the server's `error` and whose `conflicts` are the objects; `force` goes past it (audited).
   */
  async shellCheck(body: ShellCheckRequest, options: { force?: boolean } = {}): Promise<ShellCheckResult> {
    const path = `${DEPLOY_PATHS.shellCheck}${options.force ? '?force=1' : ''}`;
    const response = await this.send('POST', path, { json: body }, false);
    return this.read(response, ShellCheckResultSchema, 'the shell check');
  }

  async releases(remote: RemotePackage) {
    return this.get(DEPLOY_PATHS.releases(remote), ReleaseListSchema, 'the releases');
  }

  /**
   * PUT a release bundle for the environment (its audit log; the token must cover it). `body` makes the
   * stream afresh, so a refused connection can be tried again; once connected, a failure is final (the
   * caller sees it and releases again: the same bytes are a no-op).
   */
  async upload(
    remote: RemotePackage,
    version: string,
    body: () => ReadableStream<Uint8Array>,
    options: { force?: boolean; environment?: string } = {},
  ): Promise<ReleaseUploadResult & { status: number }> {
    const query = new URLSearchParams({
      env: options.environment ?? this.environment,
      ...(options.force ? { force: '1' } : {}),
    });
    const path = `${DEPLOY_PATHS.release(remote, version)}?${query}`;
    const url = `${this.target.url}${path}`;
    for (let attempt = 1; ; attempt++) {
      let response: KyResponse;
      try {
        response = await ky(url, {
          method: 'PUT',
          body: body(),
          // Node's fetch sends a stream only as a half-duplex request.
          duplex: 'half',
          throwHttpErrors: false,
          retry: 0,
          timeout: false,
          headers: this.headers({ 'content-type': 'application/gzip' }),
        } as Options);
      } catch (error) {
        if (attempt < 3 && neverConnected(error)) {
          await delay(250 * attempt);
          continue;
        }
        throw this.unreachable(error);
      }
      const result = await this.read(response, ReleaseUploadResultSchema, 'the upload');
      return { ...result, status: response.status };
    }
  }
}
