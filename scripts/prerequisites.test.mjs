// `node --test scripts/prerequisites.test.mjs`: what `pnpm start:cluster` (and scripts/install.sh, the nginx
// tests, the systemd check) say when a Debian program is missing (issue 48: it used to fail with
// "nginx -t refused …: null").
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  checkPrerequisites,
  findProgram,
  installCommand,
  requirePrerequisites,
  SYSTEM_DIRS,
} from './prerequisites.mjs';

const SCRIPT = path.join(import.meta.dirname, 'prerequisites.mjs');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'prerequisites-'));
test.after(() => fs.rmSync(work, { recursive: true, force: true }));

/** A folder holding only an executable `name` (a stand-in for Debian's program). */
function folderWith(name) {
  const dir = fs.mkdtempSync(path.join(work, 'bin-'));
  fs.writeFileSync(path.join(dir, name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return dir;
}
/** A PATH with node's folder only: no nginx there. */
const pathWithoutNginx = path.dirname(process.execPath);

test('PATH without nginx and no system folder holding it: the message names nginx and the command that installs it', () => {
  assert.equal(findProgram('nginx', { searchPath: pathWithoutNginx, systemDirs: [] }), null);
  assert.throws(
    () =>
      requirePrerequisites(['nginx'], 'The cluster (pnpm start:cluster)', {
        searchPath: pathWithoutNginx,
        systemDirs: [],
        root: true,
      }),
    (error) => {
      assert.equal(error.code, 'MISSING_PREREQUISITES');
      assert.equal(
        error.message,
        [
          'The cluster (pnpm start:cluster) needs what this machine does not have:',
          '  - nginx, the front door of the cluster (Debian package nginx)',
          'Install it with:',
          '  apt-get update && apt-get install -y nginx',
          'or run `bash scripts/install.sh --nginx`, which does the same.',
        ].join('\n'),
      );
      assert.doesNotMatch(error.message, /null/);
      return true;
    },
  );
});

test('nginx and PostgreSQL both missing: one apt-get line for both, with sudo when not root', () => {
  const { missing } = checkPrerequisites(['nginx', 'postgres'], {
    searchPath: pathWithoutNginx,
    systemDirs: [],
    postgresRoot: path.join(work, 'no-postgresql'),
  });
  assert.deepEqual(
    missing.map((m) => m.debian),
    ['nginx', 'postgresql'],
  );
  assert.throws(
    () =>
      requirePrerequisites(['nginx', 'postgres'], 'The cluster (pnpm start:cluster)', {
        searchPath: pathWithoutNginx,
        systemDirs: [],
        postgresRoot: path.join(work, 'no-postgresql'),
        root: false,
      }),
    /PostgreSQL's server programs[\s\S]*Install them with:\n {2}sudo apt-get update && sudo apt-get install -y nginx postgresql\nor run `bash scripts\/install\.sh --nginx --postgres`/,
  );
  assert.equal(installCommand(['nginx'], { root: true }), 'apt-get update && apt-get install -y nginx');
});

test("nginx outside PATH but in a system folder (Debian's /usr/sbin, not on a user's PATH) is found there", () => {
  const sbin = folderWith('nginx');
  const found = requirePrerequisites(['nginx'], 'test', { searchPath: pathWithoutNginx, systemDirs: [sbin] });
  assert.equal(found.nginx, path.join(sbin, 'nginx'));
  // PATH first: the same name earlier on PATH wins.
  const onPath = folderWith('nginx');
  assert.equal(findProgram('nginx', { searchPath: onPath, systemDirs: [sbin] }), path.join(onPath, 'nginx'));
  // A file that is not executable is not a program.
  const notExecutable = fs.mkdtempSync(path.join(work, 'bin-'));
  fs.writeFileSync(path.join(notExecutable, 'nginx'), '', { mode: 0o644 });
  assert.equal(findProgram('nginx', { searchPath: notExecutable, systemDirs: [] }), null);
});

test('Prometheus, when the cluster is asked for it: its own line, package and install.sh flag', () => {
  assert.throws(
    () =>
      requirePrerequisites(['nginx', 'prometheus'], 'The cluster (pnpm start:cluster --prometheus)', {
        searchPath: folderWith('nginx'),
        systemDirs: [],
        root: true,
      }),
    (error) => {
      assert.match(error.message, /^ {2}- Prometheus, .*\(Debian package prometheus\)$/m);
      assert.doesNotMatch(error.message, /Debian package nginx/);
      assert.match(error.message, /apt-get install -y prometheus\n/);
      assert.match(error.message, /bash scripts\/install\.sh --prometheus`/);
      return true;
    },
  );
  const bin = folderWith('prometheus');
  assert.deepEqual(checkPrerequisites(['prometheus'], { searchPath: bin, systemDirs: [] }).found, {
    prometheus: path.join(bin, 'prometheus'),
  });
});

test('PostgreSQL: the newest version folder with initdb', () => {
  const root = fs.mkdtempSync(path.join(work, 'postgresql-'));
  for (const version of ['13', '15']) {
    fs.mkdirSync(path.join(root, version, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(root, version, 'bin', 'initdb'), '', { mode: 0o755 });
  }
  fs.mkdirSync(path.join(root, '16', 'bin'), { recursive: true }); // no initdb: a client-only install
  assert.deepEqual(checkPrerequisites(['postgres'], { postgresRoot: root }).found, {
    postgres: path.join(root, '15', 'bin'),
  });
});

test('the command line: PATH without nginx, as a user on Debian has it', () => {
  const run = spawnSync(process.execPath, [SCRIPT, 'nginx'], {
    encoding: 'utf8',
    env: { PATH: pathWithoutNginx },
  });
  const inSystemDir = SYSTEM_DIRS.map((dir) => path.join(dir, 'nginx')).find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (inSystemDir) {
    // This machine has Debian's nginx: found outside PATH, where the scripts then run it from.
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^nginx +${inSystemDir}$`, 'm'));
  } else {
    assert.equal(run.status, 1);
    assert.match(run.stderr, /nginx, the front door of the cluster \(Debian package nginx\)/);
    assert.match(run.stderr, /apt-get install -y nginx/);
  }
  // --debian: the packages to install, nothing else (scripts/install.sh reads it).
  const debian = spawnSync(process.execPath, [SCRIPT, '--debian', 'nginx'], {
    encoding: 'utf8',
    env: { PATH: pathWithoutNginx },
  });
  assert.equal(debian.status, 0);
  assert.equal(debian.stdout.trim(), inSystemDir ? '' : 'nginx');
  // A name it does not know is refused, not skipped.
  const unknown = spawnSync(process.execPath, [SCRIPT, 'nginxx'], { encoding: 'utf8' });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown: nginxx/);
});

test('`pnpm start:cluster` without nginx anywhere: that message, before anything starts', (t) => {
  // Debian's nginx is hidden by mounting an empty folder over each system folder in a mount namespace of
  // the run's own: possible as root with unshare (CI runs so); skipped elsewhere.
  const hide = SYSTEM_DIRS.filter((dir) => fs.existsSync(dir));
  const probe = spawnSync('unshare', ['-m', 'true']);
  if (process.getuid?.() !== 0 || probe.status !== 0) {
    t.skip('needs root and unshare -m (a mount namespace) to hide /usr/sbin/nginx');
    return;
  }
  const empty = fs.mkdtempSync(path.join(work, 'empty-'));
  const mounts = hide.map((dir) => `mount --bind ${empty} ${dir}`).join(' && ');
  const root = path.dirname(import.meta.dirname);
  const run = spawnSync(
    'unshare',
    ['-m', 'sh', '-c', `${mounts} && exec "$0" --import tsx scripts/cluster/cluster.mjs`, process.execPath],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        CLUSTER_RUN_DIR: path.join(work, 'cluster-run'),
        CLUSTER_PG_DIR: path.join(work, 'cluster-pg'),
      },
    },
  );
  assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
  assert.match(
    run.stderr,
    /^The cluster \(pnpm start:cluster\) needs what this machine does not have:\n {2}- nginx, the front door of the cluster \(Debian package nginx\)\nInstall it with:\n {2}apt-get update && apt-get install -y nginx\n/m,
  );
  assert.doesNotMatch(run.stderr, /nginx -t|null/);
  // Nothing was started: no run folder, no database folder.
  assert.equal(fs.existsSync(path.join(work, 'cluster-run')), false);
  assert.equal(fs.existsSync(path.join(work, 'cluster-pg')), false);
});
