import { setTimeout as delay } from 'node:timers/promises';
import {
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
import type * as v from 'valibot';
import { DeployApiError, DeployHttp, neverConnected } from './deploy-http';

export { DeployApiError };

export type VerbBody<V extends DeployVerb> = v.InferInput<(typeof DEPLOY_BODIES)[V]>;

/**
 * The deploy API's calls (DEPLOY_PATHS), each answer read against its contract schema (deploy-http.ts:
 * transport, retries, refusals).
 */
export class DeployClient extends DeployHttp {
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
