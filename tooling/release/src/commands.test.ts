import type { RemotePackage } from '@app/rollout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  abort,
  bootstrap,
  formatChange,
  promote,
  promoteTo,
  rollback,
  setPercent,
  startCanary,
} from './commands';
import { DeployApiError } from './deploy-client';
import { apiHealthSource } from './health';
import { createPreview, formatPreviews, listPreviews, revokePreview } from './preview';
import { release } from './release';
import { formatHistory, formatStatus, history, statusReport } from './status';
import { runCli, startTestApi, type TestApi } from './test-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.stop());

/** Releases a fake build of `remote` whose bytes depend on `content`; its version id. */
async function released(remote: RemotePackage, content: string): Promise<string> {
  const dist = api.dist({ remote, content, at: `${remote}-${content}` });
  return (await release({ remote, root: api.dir, dist }, api.context().client)).info.version;
}

describe('rollout commands through the deploy API', () => {
  it('bootstrap, start, set, promote, abort, rollback: one revision each, audited with the state before and after', async () => {
    const ctx = api.context({ environment: 'staging' });
    const a = await released('mf-research', 'a');
    const b = await released('mf-research', 'b');
    const c = await released('mf-research', 'c');
    const first = await bootstrap(ctx, { remote: 'mf-research', version: a });
    expect(first.manifest.remotes['mf-research']?.stable).toBe(a);
    expect(first.entries).toMatchObject([{ action: 'bootstrap', remote: 'mf-research', to: `stable ${a}` }]);

    // Again (a pipeline run twice): nothing written, and the CLI says so.
    const again = await bootstrap(ctx, { remote: 'mf-research', version: a, replace: true });
    expect(again.revision).toBe(first.revision);
    expect(formatChange(again)).toBe(
      `nothing to change\ndeployment "staging" is at revision ${first.revision}`,
    );

    const started = await startCanary(ctx, { remote: 'mf-research', version: b, percent: 10 });
    expect(started.revision).toBe(first.revision + 1);
    expect(started.entries[0]).toMatchObject({
      action: 'start',
      from: `stable ${a}`,
      to: `stable ${a} · canary ${b} at 10 %`,
      environment: 'staging',
    });
    expect(formatChange(started).split('\n')).toEqual([
      `mf-research: stable ${a} → stable ${a} · canary ${b} at 10 %`,
      `deployment "staging" is at revision ${started.revision}`,
    ]);
    const set = await setPercent(ctx, { remote: 'mf-research', percent: 50 });
    expect(set.manifest.remotes['mf-research']?.canary?.percent).toBe(50);
    const promoted = await promote(ctx, { remote: 'mf-research' });
    const deployment = promoted.manifest.remotes['mf-research'];
    expect(deployment).toMatchObject({ stable: b, previous: [a] });
    // Every version the manifest names carries the entry digest recorded at release.
    expect(Object.keys(deployment?.integrity ?? {}).sort()).toEqual([a, b].sort());

    await startCanary(ctx, { remote: 'mf-research', version: c, percent: 5 });
    const aborted = await abort(ctx, { remote: 'mf-research' });
    expect(aborted.manifest.remotes['mf-research']?.canary).toBeUndefined();
    const back = await rollback(ctx, { remote: 'mf-research' });
    expect(back.manifest.remotes['mf-research']).toMatchObject({ stable: a });

    const { entries } = await history(ctx, 'mf-research');
    expect(entries.map((e) => e.action)).toEqual([
      'rollback',
      'abort',
      'start',
      'promote',
      'set',
      'start',
      'bootstrap',
      // Released for staging (the context's environment), so audited there.
      'release',
      'release',
      'release',
    ]);
    expect(entries[0]?.actor).toBe('local');
    expect(formatHistory('mf-research', entries).split('\n')[0]).toContain('local  rollback: ');
  });

  it('refusals come back as the server says them (409), nothing changed', async () => {
    const ctx = api.context({ environment: 'staging' });
    const before = await ctx.client.state();
    await expect(promote(ctx, { remote: 'mf-research' })).rejects.toThrow(/no canary to promote/);
    await expect(
      startCanary(ctx, { remote: 'mf-research', version: '9.9.9-0123456789', percent: 5 }),
    ).rejects.toThrow(/not released/);
    expect((await ctx.client.state()).revision).toBe(before.revision);
  });

  it('a change based on a stale revision is refused with 412 and the revision it is at now', async () => {
    const alice = api.context({ environment: 'staging' });
    const bob = api.context({ environment: 'staging' });
    const v1 = await released('mf-survey', 's1');
    await bootstrap(alice, { remote: 'mf-survey', version: v1 });
    const v2 = await released('mf-survey', 's2');
    const seenByBob = await bob.client.state();
    const aliceChange = await startCanary(alice, { remote: 'mf-survey', version: v2, percent: 10 });
    const refused = bob.client.command('mf-survey', 'set', { percent: 90 }, seenByBob.revision);
    await expect(refused).rejects.toThrow(
      `the deployment changed meanwhile: it is at revision ${aliceChange.revision} now; look (pnpm rollout status) and try again`,
    );
    await expect(refused).rejects.toMatchObject({ status: 412, revision: aliceChange.revision });
    expect((await bob.client.state()).manifest.remotes['mf-survey']?.canary?.percent).toBe(10);
  });

  it('a token scoped to mf-research may not change mf-account: 403 with the server’s words', async () => {
    const token = await api.createToken([
      '--name',
      'research-ci',
      '--remote',
      'mf-research',
      '--env',
      'staging,production',
    ]);
    const ctx = api.context({ token, environment: 'staging' });
    const error = await startCanary(ctx, {
      remote: 'mf-account',
      version: '1.0.0-0123456789',
      percent: 5,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeployApiError);
    expect((error as DeployApiError).status).toBe(403);
    expect((error as DeployApiError).message).toMatch(/mf-research/);
    expect((await ctx.client.tokenScope()).name).toBe('research-ci');
    const cli = await runCli('rollout', ['abort', 'mf-account', '--env', 'staging', '--to', api.url], {
      DEPLOY_TOKEN: token,
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim()).toBe(`error: ${(error as DeployApiError).message}`);
  });

  it('promote-to brings staging’s version to production with the same integrity, as a canary or as stable', async () => {
    const staging = api.context({ environment: 'staging' });
    const old = await released('mf-public-pages', 'p1');
    const next = await released('mf-public-pages', 'p2');
    await bootstrap(api.context({ environment: 'production' }), { remote: 'mf-public-pages', version: old });
    await bootstrap(staging, { remote: 'mf-public-pages', version: next });
    const pinned = (await staging.client.state()).manifest.remotes['mf-public-pages']?.integrity?.[next];
    expect(pinned).toMatch(/^sha384-/);
    const canary = await promoteTo(staging, {
      environment: 'production',
      remote: 'mf-public-pages',
      version: next,
      percent: 10,
    });
    expect(canary.environment).toBe('production');
    // Audited as what it does in production (a canary's start), saying where it came from.
    expect(canary.entries[0]).toMatchObject({
      action: 'start',
      environment: 'production',
      reason: 'adopted from "staging"',
    });
    const prod = canary.manifest.remotes['mf-public-pages'];
    expect(prod).toMatchObject({ stable: old, canary: { version: next, percent: 10 } });
    expect(prod?.integrity?.[next]).toBe(pinned);
    // Through the CLI, without --percent: production's canary of that version becomes its stable.
    const cli = await runCli(
      'rollout',
      ['promote-to', 'production', 'mf-public-pages', next, '--to', api.url],
      {
        DEPLOY_TOKEN: api.adminToken,
      },
    );
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toContain(
      `mf-public-pages: stable ${old} · canary ${next} at 10 % → stable ${next}\n`,
    );
    expect(cli.stdout).toMatch(/deployment "production" is at revision \d+\n$/);
    // A version staging does not run cannot be adopted.
    await expect(
      promoteTo(staging, { environment: 'production', remote: 'mf-public-pages', version: old }),
    ).rejects.toBeInstanceOf(DeployApiError);
  });

  it('status reads the state and each version’s health over the API', async () => {
    const ctx = api.context({ environment: 'staging' });
    const report = await statusReport(ctx, apiHealthSource(ctx.client));
    const research = report.remotes.find((r) => r.remote === 'mf-research');
    expect(research?.healthError).toBeNull();
    expect(research?.health[0]).toMatchObject({ track: 'stable', visitors: 0, views: 0 });
    expect(formatStatus(report)).toMatch(/^deployment "staging" · revision \d+ · updated /);
  });

  it('preview links: made in one environment, listed there only, revoked (again: the same answer)', async () => {
    const staging = api.context({ environment: 'staging' });
    const version = await released('mf-research', 'previewed');
    const link = await createPreview(staging, {
      remote: 'mf-research',
      version,
      hours: 1,
      baseUrl: 'https://app.example.com',
    });
    expect(link).toMatchObject({ environment: 'staging', remote: 'mf-research', version });
    expect(link.url).toBe(`https://app.example.com/?preview=${link.token}`);
    const listed = await listPreviews(staging, 'mf-research');
    expect(listed.previews.find((p) => p.id === link.id)).toMatchObject({ status: 'active', version });
    const production = api.context({ environment: 'production' });
    expect((await listPreviews(production)).previews.map((p) => p.id)).not.toContain(link.id);
    await expect(revokePreview(production, link.id)).rejects.toThrow(
      `No preview link "${link.id}" in the "production" environment`,
    );
    const revoked = await revokePreview(staging, link.id);
    expect(revoked).toMatchObject({ id: link.id, status: 'revoked', revokedBy: 'local' });
    expect(await revokePreview(staging, link.id)).toEqual(revoked);
    expect(formatPreviews(await listPreviews(staging))).toContain(
      `${link.id}  revoked  mf-research ${version}  revoked ${revoked.revokedAt} by local  (made by local)`,
    );
    await expect(createPreview(staging, { remote: 'mf-research', version, hours: 169 })).rejects.toThrow(
      '--hours must be more than 0 and at most 168 (7 days), got 169',
    );
  });

  it('the CLI: start, status --json, history --json, and what a bad argument says', async () => {
    const env = { DEPLOY_API_URL: api.url, DEPLOY_TOKEN: api.adminToken, DEPLOY_ENV: 'staging' };
    const version = await released('mf-research', 'cli');
    const start = await runCli('rollout', ['start', 'mf-research', version, '--percent', '5'], env);
    expect(start.stderr).toBe('');
    expect(start.stdout).toMatch(/canary .* at 5 %\ndeployment "staging" is at revision \d+\n$/);
    const status = JSON.parse((await runCli('rollout', ['status', '--json'], env)).stdout);
    expect(status.remotes.find((r: { remote: string }) => r.remote === 'mf-research').canary.version).toBe(
      version,
    );
    const hist = JSON.parse(
      (await runCli('rollout', ['history', 'mf-research', '--json', '--limit', '1'], env)).stdout,
    );
    expect(hist.entries).toHaveLength(1);
    expect(hist.entries[0].action).toBe('start');
    const bad = await runCli('rollout', ['set', 'mf-research', '--percent', '101'], env);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain('--percent must be a whole number from 0 to 100, got "101"');
    const wrongEnv = await runCli('rollout', ['status', '--env', 'qa'], env);
    expect(wrongEnv.code).toBe(1);
    expect(wrongEnv.stderr).toMatch(/staging/);
  });

  it('the CLI: preview prints the link, its id and expiry; previews lists; revoke-preview ends it', async () => {
    const env = { DEPLOY_API_URL: api.url, DEPLOY_TOKEN: api.adminToken, DEPLOY_ENV: 'production' };
    const version = await released('mf-research', 'cli-preview');
    const made = await runCli(
      'rollout',
      [
        'preview',
        'mf-research',
        version,
        '--hours',
        '2',
        '--env',
        'staging',
        '--base-url',
        'https://qa.example.com',
      ],
      env,
    );
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const [head, hint, url] = made.stdout.trimEnd().split('\n');
    const id = /^preview (\S+): /.exec(head ?? '')?.[1] as string;
    expect(head).toMatch(
      new RegExp(`^preview ${id}: mf-research ${version} in "staging", expires \\d{4}-\\d\\d-\\d\\dT`),
    );
    expect(hint).toBe(`revoke it with: pnpm rollout revoke-preview ${id} --env staging`);
    expect(url).toMatch(/^https:\/\/qa\.example\.com\/\?preview=mfp_[A-Za-z0-9_-]{43}$/);

    const list = await runCli('rollout', ['previews', '--env', 'staging', '--remote', 'mf-research'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^preview links in "staging":\n${id}  active   mf-research ${version}  until `),
    );
    const json = JSON.parse(
      (await runCli('rollout', ['previews', '--json', '--env', 'staging'], env)).stdout,
    );
    expect(json.previews.find((p: { id: string }) => p.id === id)).toMatchObject({ status: 'active' });
    // DEPLOY_ENV is production: the staging link is not there.
    const elsewhere = await runCli('rollout', ['revoke-preview', id], env);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(`No preview link "${id}" in the "production" environment`);
    const revoked = await runCli('rollout', ['revoke-preview', id, '--env', 'staging'], env);
    expect(revoked.stderr).toBe('');
    expect(revoked.stdout).toMatch(
      new RegExp(
        `^preview ${id} \\(mf-research ${version}\\) in "staging" is revoked since \\S+ \\(by local\\)\n$`,
      ),
    );
    const tooLong = await runCli('rollout', ['preview', 'mf-research', version, '--hours', '200'], env);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('--hours must be more than 0 and at most 168 (7 days), got 200');
  });
});
