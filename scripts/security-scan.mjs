// `pnpm test:security`: Debian's wapiti (a maintained web vulnerability scanner) against the running product,
// with a bounded time, failing on any finding of medium severity or higher (issue 11).
//
// It starts the whole stack itself (scripts/start.mjs on the default ports) on a fresh database, a release
// store and a deployment of its own under a temp folder, so it never touches a developer's data, then scans:
//   1. the shell's pages (3000): headers, the single-page app's paths, and whatever wapiti crawls from them;
//   2. the API (4000) as a guest: every GET route with query parameters wapiti can attack;
//   3. the API as a signed-in member (a Bearer token of an account registered for the scan).
// Findings are read from wapiti's JSON report: `vulnerabilities` and `anomalies` (500s and timeouts) whose
// level is 2 (medium) or more fail the run; low and informational ones are printed.
// Env: SCAN_MAX_SECONDS (per scan, default 150), SCAN_KEEP_REPORTS=<dir> keeps the JSON reports there.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API, ROOT, SHELL_URL } from './apps.mjs';
import { requirePrerequisites } from './prerequisites.mjs';

const SHELL = SHELL_URL;
const API_URL = `http://localhost:${API.port}`;
const MAX_SECONDS = Number(process.env.SCAN_MAX_SECONDS ?? 150);
/** wapiti's levels (wapitiCore/language/vulnerability.py): 0 info, 1 low, 2 medium, 3 high, 4 critical. */
const FAIL_FROM_LEVEL = 2;
// `common` is wapiti's default set; ssrf needs wapiti's own server on the internet (not reachable here, and
// no traffic of ours leaves this machine).
const MODULES = 'common,-ssrf';

/** wapiti's path, or exit naming the command that installs it (scripts/prerequisites.mjs). */
function requireWapiti() {
  try {
    return requirePrerequisites(['wapiti'], 'pnpm test:security').wapiti;
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

function startStack(workDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.mjs'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: {
      ...process.env,
      DB_PATH: path.join(workDir, 'scan.db'),
      RELEASE_STORE_DIR: path.join(workDir, 'releases'),
      DEPLOY_DIR: path.join(workDir, 'deploy'),
      ROLLOUT_FOLLOW_BUILDS: '1',
      REQUIRES_ACTIVATION: 'false',
      LOG_LEVEL: 'silent',
    },
  });
  return () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
}

/** A member account for the authenticated pass: registered and logged in through the API itself. */
async function memberToken() {
  const email = `scan-${Date.now()}@example.com`;
  const password = 'Scan-pass-1234';
  const register = await fetch(`${API_URL}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `scan${Date.now()}`,
      password,
      name: { first: 'Scan', last: 'Member' },
      email,
      address: { street: '1 Scanner Street', city: 'Berlin', postal_code: '10115', country: 'Germany' },
    }),
  });
  if (!register.ok)
    throw new Error(`registering the scan account failed: ${register.status} ${await register.text()}`);
  const login = await fetch(`${API_URL}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  const body = await login.json();
  if (!login.ok || typeof body.token !== 'string')
    throw new Error(`logging in the scan account failed: ${login.status}`);
  return body.token;
}

const SHELL_START = [
  '/',
  '/about',
  '/contact',
  '/impressum',
  '/plans',
  '/login',
  '/register',
  '/research-center?tab=analytics',
  '/post/1',
  '/deployment.json',
  '/config.json',
];
const API_START = [
  '/api/health',
  '/api/posts?limit=6&visibility=public',
  '/api/posts?limit=6&type=article&tag=security',
  '/api/posts/search?q=ransomware&limit=10',
  '/api/posts/tags',
  '/api/posts/categories',
  '/api/posts/1',
  '/api/posts/1/comments',
  '/api/public-contact',
  '/api/public-impressum',
  '/api/stats',
  '/api/dashboards',
];
const MEMBER_START = [
  '/api/profile',
  '/api/posts/my?limit=10',
  '/api/report',
  '/api/posts/search?q=cyber&limit=5',
];

function runWapiti({ name, base, starts, headers = [], reportDir }) {
  const report = path.join(reportDir, `${name}.json`);
  const args = [
    '--url',
    `${base}/`,
    '--scope',
    'folder',
    ...starts.flatMap((start) => ['--start', `${base}${start}`]),
    '--module',
    MODULES,
    '--max-scan-time',
    String(MAX_SECONDS),
    '--max-attack-time',
    String(Math.max(20, Math.floor(MAX_SECONDS / 6))),
    '--timeout',
    '10',
    '--depth',
    '3',
    '--flush-session',
    '--store-session',
    path.join(reportDir, `${name}-session`),
    '--no-bugreport',
    '--verbose',
    '0',
    '--format',
    'json',
    '--output',
    report,
    ...headers.flatMap((header) => ['--header', header]),
  ];
  const started = Date.now();
  const run = spawnSync(WAPITI, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0 || !fs.existsSync(report)) {
    throw new Error(`wapiti (${name}) exited ${run.status}: ${run.stderr || run.stdout}`.slice(0, 4000));
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  return { name, seconds, ...JSON.parse(fs.readFileSync(report, 'utf8')) };
}

/** Every finding of a report as one flat list: { kind, category, level, method, path, parameter, info }. */
export function findingsOf(report) {
  const findings = [];
  for (const kind of ['vulnerabilities', 'anomalies']) {
    for (const [category, items] of Object.entries(report[kind] ?? {})) {
      for (const item of items) findings.push({ kind, category, ...item, level: Number(item.level) });
    }
  }
  return findings;
}

/** Set by main() before any scan. */
let WAPITI = 'wapiti';

async function main() {
  WAPITI = requireWapiti();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'security-scan-'));
  const reportDir = process.env.SCAN_KEEP_REPORTS ?? workDir;
  fs.mkdirSync(reportDir, { recursive: true });
  const stop = startStack(workDir);
  process.on('exit', stop);
  let failed = 0;
  try {
    await waitFor(`${SHELL}/config.json`, 300_000);
    const token = await memberToken();
    const scans = [
      { name: 'shell', base: SHELL, starts: SHELL_START },
      { name: 'api-guest', base: API_URL, starts: API_START },
      {
        name: 'api-member',
        base: API_URL,
        starts: MEMBER_START,
        headers: [`Authorization: Bearer ${token}`],
      },
    ];
    for (const scan of scans) {
      const report = runWapiti({ ...scan, reportDir });
      const findings = findingsOf(report);
      const serious = findings.filter((finding) => finding.level >= FAIL_FROM_LEVEL);
      console.log(
        `wapiti ${report.name}: ${scan.starts.length} start URLs crawled and attacked in ${report.seconds} s, ` +
          `${findings.length} finding(s), ${serious.length} of medium severity or higher`,
      );
      for (const finding of findings) {
        const where = `${finding.method ?? ''} ${finding.path ?? ''}${finding.parameter ? ` [${finding.parameter}]` : ''}`;
        console.log(
          `  level ${finding.level} ${finding.kind}/${finding.category}: ${where} ${finding.info ?? ''}`.trimEnd(),
        );
      }
      failed += serious.length;
    }
  } finally {
    stop();
  }
  console.log(
    failed === 0
      ? 'security scan: no finding of medium severity or higher'
      : `security scan: ${failed} finding(s) of medium severity or higher`,
  );
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(`security scan failed: ${error.message}`);
  process.exit(1);
});
