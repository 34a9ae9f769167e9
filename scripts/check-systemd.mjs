// Checks the systemd units in infra/systemd/ (issue 32): `systemd-analyze verify` on each (a template
// through one instance of it), which needs no systemd running as PID 1. systemd-analyze prints a bad
// directive but still exits 0, so any line it prints fails the check. Also fails when a unit lacks one of
// the directives the cluster relies on (restart policy, draining, limits, sandbox), when the edge could
// reach what the API owns (issue 44: its own user, the release store read-only and nothing else of
// /var/lib/risk-intel, no writes, no /etc/risk-intel), when a unit does not name nginx's address in
// TRUSTED_PROXIES (issue 46), when a unit that runs the API does not turn the demo content off
// (SEED_DEMO=false, issue 48) or any unit turns it on, when a path into the release (/opt/risk-intel/current/…)
// in a unit or in infra/systemd/README.md names a folder the repository does not have, or a bundle the builds
// do not write (issue 48: the README named packages/…/dist/main.mjs), and when
// `systemd-analyze security --offline` rates a unit's exposure above its bound.
// Needs Debian's `systemd` package (systemd-analyze). Run: `node scripts/check-systemd.mjs`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requirePrerequisites } from './prerequisites.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const UNITS = path.join(ROOT, 'infra', 'systemd');
/** The instance each template is verified as (the cluster's first port of that kind). */
const SAMPLE_INSTANCE = { 'risk-intel-api@.service': '4001', 'risk-intel-edge@.service': '3101' };
/** What every service unit must say (name=value, or just name=). */
const REQUIRED = [
  'Restart=on-failure',
  'RestartSec=',
  'KillSignal=SIGTERM',
  'TimeoutStopSec=',
  'LimitNOFILE=',
  'MemoryMax=',
  'NoNewPrivileges=yes',
  'ProtectSystem=strict',
  'ProtectHome=yes',
  'PrivateTmp=yes',
  'User=',
  'EnvironmentFile=',
  'ExecStart=/usr/bin/node ',
  // Issue 46: both believe X-Forwarded-For (and the edge X-Forwarded-Proto) from nginx, and from nothing else.
  'Environment=TRUSTED_PROXIES=',
];

/** The API's: it writes the release store (uploads), the deploy folder and a SQLite file, if any. */
const API_REQUIRED = ['ReadWritePaths=/var/lib/risk-intel'];
/**
 * The edge's (issue 44): a user of its own, nothing of /var/lib/risk-intel but the store (read-only), no
 * writable path, /etc/risk-intel out of sight, and only the namespaces its render workers need.
 */
const EDGE_REQUIRED = [
  'User=risk-intel-edge',
  'TemporaryFileSystem=/var/lib/risk-intel:ro',
  'BindReadOnlyPaths=/var/lib/risk-intel/releases',
  'InaccessiblePaths=/etc/risk-intel',
  'RestrictNamespaces=user net pid',
  'OOMPolicy=continue',
];
const EDGE_FORBIDDEN = [
  /^ReadWritePaths=/,
  /^DynamicUser=/,
  /^EnvironmentFile=.*api/,
  /^Environment=.*(DEPLOY_DIR|DATABASE_URL)/,
];
/** The highest exposure `systemd-analyze security --offline` may rate each service (0 best, 10 worst). */
const MAX_EXPOSURE = { 'risk-intel-api@.service': 3.5, 'risk-intel-edge@.service': 4 };

const lines = (text) => text.split('\n').map((line) => line.trim());
const directive = (text, name) =>
  lines(text)
    .find((line) => line.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** Where a host keeps the release (the repository with its builds): the units' and the README's paths. */
const RELEASE = '/opt/risk-intel/current/';
/** The bundles the builds write, per package folder (each service's build.mjs). */
const BUNDLES = {
  'services/api-server': ['dist/main.mjs', 'dist/admin.mjs'],
  'services/edge': ['dist/main.mjs'],
};

/**
 * Issue 48: a unit that runs the API (its bundle) says SEED_DEMO=false in an Environment= line (the API's own
 * default fills an empty database with demo content); no unit says anything else for it.
 */
function seedDemoProblems(file, text) {
  const found = [];
  const runsApi = lines(text).some((line) => /^ExecStart=.*services\/api-server\/dist\//.test(line));
  const settings = lines(text).filter((line) => /^Environment=.*\bSEED_DEMO=/.test(line));
  if (runsApi && !settings.some((line) => /\bSEED_DEMO=false\b/.test(line)))
    found.push(`${file}: runs the API without Environment=SEED_DEMO=false (demo content in production)`);
  for (const line of lines(text))
    if (/\bSEED_DEMO=(?!false\b)/.test(line) && !line.startsWith('#'))
      found.push(`${file}: ${line} (production units keep the demo content off)`);
  return found;
}

/**
 * Every path into the release in `text` (a unit, the README) names what the repository has: a folder or file
 * in it, or a bundle its package's build writes (dist/ is not in the repository).
 */
function releasePathProblems(file, text) {
  const found = [];
  for (const match of text.matchAll(/\/opt\/risk-intel\/current\/([^\s`'")]*)/g)) {
    const rel = match[1].replace(/[.,:;]+$/, '');
    if (rel === '') continue;
    const distAt = rel.search(/(^|\/)dist(\/|$)/);
    if (distAt >= 0) {
      const pkg = rel.slice(0, distAt);
      const output = rel.slice(distAt === 0 ? 0 : distAt + 1);
      if (!BUNDLES[pkg]?.includes(output))
        found.push(
          `${file}: ${RELEASE}${rel}: no build writes it (bundles: ${Object.entries(BUNDLES)
            .flatMap(([p, files]) => files.map((f) => `${p}/${f}`))
            .join(', ')})`,
        );
    } else if (!fs.existsSync(path.join(ROOT, rel))) {
      found.push(`${file}: ${RELEASE}${rel}: not in the repository`);
    }
  }
  return found;
}

/** What the edge unit may not have that the API's has, and what it must have. */
function edgeProblems(edge, api) {
  const found = [];
  for (const needed of EDGE_REQUIRED)
    if (!lines(edge).includes(needed)) found.push(`risk-intel-edge@.service: no ${needed}`);
  for (const line of lines(edge))
    if (EDGE_FORBIDDEN.some((pattern) => pattern.test(line))) found.push(`risk-intel-edge@.service: ${line}`);
  if (directive(edge, 'User') === directive(api, 'User'))
    found.push("risk-intel-edge@.service runs as the API's user");
  for (const needed of API_REQUIRED)
    if (!lines(api).includes(needed)) found.push(`risk-intel-api@.service: no ${needed}`);
  return found;
}

let systemdAnalyze;
try {
  systemdAnalyze = requirePrerequisites(['systemd-analyze'], 'pnpm test:systemd')['systemd-analyze'];
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'check-systemd-'));
const problems = [];
try {
  const files = fs.readdirSync(UNITS).filter((f) => /\.(service|target)$/.test(f));
  if (files.length === 0) problems.push(`no units in ${UNITS}`);
  for (const file of files) {
    let text = fs.readFileSync(path.join(UNITS, file), 'utf8');
    if (file.endsWith('.service')) {
      for (const needed of REQUIRED) {
        if (!text.split('\n').some((line) => line.startsWith(needed))) problems.push(`${file}: no ${needed}`);
      }
      // The drain bound must fit in the stop timeout.
      const drainMs = Number(text.match(/DRAIN_TIMEOUT_MS=(\d+)/)?.[1] ?? 10_000);
      const stopS = Number(text.match(/^TimeoutStopSec=(\d+)s?$/m)?.[1] ?? 0);
      if (stopS * 1000 <= drainMs)
        problems.push(`${file}: TimeoutStopSec=${stopS}s is not above ${drainMs} ms`);
    }
    // verify checks that ExecStart's program exists: node where it is on this machine, if not /usr/bin.
    if (!fs.existsSync('/usr/bin/node')) text = text.replaceAll('/usr/bin/node ', `${process.execPath} `);
    fs.writeFileSync(path.join(work, file), text);
  }
  const unitText = (name) => fs.readFileSync(path.join(UNITS, name), 'utf8');
  for (const file of files) {
    problems.push(...seedDemoProblems(file, unitText(file)));
    problems.push(...releasePathProblems(file, unitText(file)));
  }
  problems.push(...releasePathProblems('README.md', unitText('README.md')));
  if (!problems.some((p) => /SEED_DEMO|no build writes|not in the repository/.test(p)))
    console.log('ok  SEED_DEMO=false wherever the API runs; every path into the release exists');
  problems.push(...edgeProblems(unitText('risk-intel-edge@.service'), unitText('risk-intel-api@.service')));
  for (const file of files) {
    const unit = file.includes('@.') ? file.replace('@.', `@${SAMPLE_INSTANCE[file] ?? '1'}.`) : file;
    const run = spawnSync(systemdAnalyze, ['verify', '--man=no', path.join(work, unit)], {
      encoding: 'utf8',
      env: { ...process.env, SYSTEMD_LOG_COLOR: '0' },
    });
    const said = `${run.stdout}${run.stderr}`.trim();
    if (run.status !== 0 || said)
      problems.push(`${unit}: systemd-analyze verify (exit ${run.status}):\n${said}`);
    else console.log(`ok  ${unit}`);
    if (MAX_EXPOSURE[file] === undefined) continue;
    const rated = spawnSync(systemdAnalyze, ['security', '--offline=true', path.join(work, unit)], {
      encoding: 'utf8',
      env: { ...process.env, SYSTEMD_LOG_COLOR: '0', SYSTEMD_COLORS: '0' },
    });
    const exposure = Number(`${rated.stdout}`.match(/Overall exposure level for \S+: ([\d.]+)/)?.[1]);
    if (!(exposure <= MAX_EXPOSURE[file]))
      problems.push(
        `${unit}: exposure ${exposure} (systemd-analyze security) is above ${MAX_EXPOSURE[file]}`,
      );
    else console.log(`ok  ${unit}: exposure ${exposure} of at most ${MAX_EXPOSURE[file]}`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
