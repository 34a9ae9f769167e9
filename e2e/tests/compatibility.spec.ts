// Issue 45: compatibility from what the code is. A team adds an export to a shared package (@app/ui), uses
// it in its remote and ships only the remote: the live shell provides the old @app/ui as the page's one
// copy, so the deploy API refuses the release and says why. The shell ships first (checked against every
// live remote), then the same remote build is accepted and works in the browser.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createMember, useToken } from '../support/api';
import { previewLink, release, rollout, tryRelease, tryShipShell } from '../support/rollout';
import { expect, test } from '../support/test';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const REMOTE = 'mf-research';
const UI_INDEX = path.join(ROOT, 'packages', 'ui', 'src', 'index.ts');
const REMOTE_APP = path.join(ROOT, REMOTE, 'src', 'app.tsx');

/**
 * Changes the sources for the builds of this test and gives back what undoes it. The sources are changed in
 * place because the builds resolve @app/ui through the workspace; nothing else builds while the suite runs,
 * and the files are restored as soon as the two builds are made (or fail).
 */
function editSources(edits: Array<[file: string, change: (text: string) => string]>): () => void {
  const originals = edits.map(([file]) => [file, fs.readFileSync(file, 'utf8')] as const);
  for (const [file, change] of edits) {
    const before = fs.readFileSync(file, 'utf8');
    const after = change(before);
    if (after === before) throw new Error(`the edit of ${file} changed nothing: the test needs updating`);
    fs.writeFileSync(file, after);
  }
  return () => {
    for (const [file, text] of originals) fs.writeFileSync(file, text);
  };
}

/** A production build of one app into a folder of its own (its dist is left as the suite built it). */
async function buildInto(app: string): Promise<string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `${app}-compat-`));
  const args = ['--filter', app, 'exec', 'webpack', '--config', 'webpack.config.mjs'];
  await run('pnpm', [...args, '--mode', 'production', '--output-path', out], {
    cwd: ROOT,
    timeout: 240_000,
  });
  return out;
}

test('a remote needing an export the live shell lacks is refused with the reason; once the shell ships it, the remote works', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(480_000);
  const probe = `Built on the new export ${Date.now()}`;
  const restore = editSources([
    [UI_INDEX, (text) => `${text}\nexport const compatProbe = (): string => ${JSON.stringify(probe)};\n`],
    [
      REMOTE_APP,
      (text) =>
        text
          .replace(
            "import { Route, Routes } from '@app/router';",
            "$&\nimport { compatProbe } from '@app/ui';",
          )
          .replace('    <Routes>', '    <>\n      <p>{compatProbe()}</p>\n      <Routes>')
          .replace('    </Routes>', '      </Routes>\n    </>'),
    ],
  ]);
  let remoteDist: string;
  let shellDist: string;
  try {
    remoteDist = await buildInto(REMOTE);
    shellDist = await buildInto('shell');
  } finally {
    restore();
  }

  // The builds say what they are: the remote needs compatProbe from @app/ui, the new shell provides it.
  const contractOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'mf-compat.json'), 'utf8'));
  expect(contractOf(remoteDist).requires['@app/ui'].compatProbe).toBe('(() => string)');
  expect(contractOf(shellDist).provides['@app/ui'].exports.compatProbe).toBe('(() => string)');

  // 1. The remote alone: refused, naming the package, the export, who needs it, who lacks it, the ways forward.
  const refused = await tryRelease(REMOTE, '--dist', remoteDist);
  const said = `${refused.stderr}${refused.stdout}`;
  expect(refused.code, said).not.toBe(0);
  expect(said).toContain('@app/ui');
  expect(said).toContain('compatProbe');
  expect(said).toContain(REMOTE);
  expect(said).toMatch(/live shell/);
  expect(said).toContain('pnpm ship-shell');
  expect(said).toContain('privateCopies');

  // 2. The provider first: the shell, checked against every live remote of every environment. Adding an
  //    export breaks none of them, so it ships, and the edge serves it at the next page.
  const shipped = await tryShipShell('--dist', shellDist);
  expect(shipped.code, `${shipped.stderr}${shipped.stdout}`).toBe(0);

  // 3. The same remote build now fits the live shell: accepted, and it works in this browser (a preview).
  const version = await release(REMOTE, '--dist', remoteDist);
  const link = await previewLink(REMOTE, version, '--hours', '1');
  try {
    const banner = page.getByRole('status', { name: 'Preview' });
    await expect(async () => {
      await page.goto(`/?preview=${link.token}`);
      await expect(banner).toContainText(`Previewing ${REMOTE} ${version}`, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await page.goto('/research-center');
    await expect(page.getByText(probe)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The region is the remote itself, not the fallback a broken remote gets.
    await expect(page.getByRole('alert')).toHaveCount(0);

    // Visible to operators: the CLI's table and the rollouts screen show the previewed version fitting the
    // live shell, @app/ui included.
    const status = await rollout('status');
    expect(status).toContain('compatibility in "');
    expect(status).toContain(`${REMOTE} ${version} (preview)`);
    const admin = await createMember(request, ['admin'], 'compatadmin');
    const context = await browser.newContext();
    const adminPage = await context.newPage();
    await useToken(adminPage, admin.token);
    await adminPage.goto('/admin/rollouts');
    const table = adminPage.getByRole('table', { name: /Compatibility in/ });
    const row = table.getByRole('row').filter({ hasText: version }).filter({ hasText: '@app/ui' });
    await expect(row).toContainText('ok');
    await context.close();
  } finally {
    await rollout('revoke-preview', link.id);
  }
});
