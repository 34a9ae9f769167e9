/**
 * `pnpm bench:api --admin` (issue 34): the two admin lists at 20 connections, against their target of a
 * p99 within 50 ms. Members: 10,000 accounts (every tenth pending), the first page, a deep page and a
 * search. Leads: 100,000 assessments written straight into market_assessments with the columns of
 * migration 13 filled (the list filters on them) and a payload as the survey would send it; the first
 * page and two filtered pages. SQLite, through the real migrations (so every index and trigger of the
 * current code is in place), the API in its own process, rate limits off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_PATHS,
  BUSINESS_ROLES,
  COMMUNICATION_METHODS,
  COMPANY_SIZES,
  INDUSTRIES,
  URGENCIES,
} from '@app/contracts';
import Database from 'better-sqlite3';
import { generateSync } from 'otplib';
import { migrate, openSqliteConnection, sqliteOver } from '../src/db/database';
import {
  ApiProcess,
  BENCH_PASSWORD,
  benchUser,
  cannon,
  DURATION,
  type Figure,
  figure,
  formatFigure,
} from './measure';
import { prng } from './seed-scale';

/** The issue's load and target: 20 connections, p99 ≤ 50 ms. */
export const ADMIN_CONNECTIONS = 20;
export const ADMIN_P99_TARGET_MS = 50;
const MEMBERS = 10_000;
const LEADS = 100_000;

export interface AdminRow extends Figure {
  key: string;
  label: string;
  path: string;
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

/** 10,000 members and 100,000 leads in one transaction of prepared statements (~2 s). */
export async function seedAdminLists(dbPath: string) {
  const db = openSqliteConnection(dbPath);
  await migrate(sqliteOver(db));
  const rand = prng(34);
  const firsts = ['Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hugo', 'Ida', 'Jonas'];
  const lasts = ['Schmidt', 'Meyer', 'Weber', 'Wagner', 'Becker', 'Hoffmann', 'Koch', 'Richter'];
  const base = Date.parse('2025-01-01T00:00:00Z');
  const insUser = db.prepare(
    `INSERT INTO users (username, email, password_hash, first_name, last_name, is_active, created_at, registered_from)
     VALUES (?, ?, 'not-a-login-hash', ?, ?, ?, ?, ?)`,
  );
  const insLead = db.prepare(
    `INSERT INTO market_assessments (email, payload, created_at, industry, company_size, urgency, consultation)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 1; i <= MEMBERS; i++) {
      const pending = i % 10 === 0;
      const at = new Date(base + i * 45 * 60_000).toISOString();
      const [first, last] = [pick(rand, firsts), pick(rand, lasts)];
      const name = `${first.toLowerCase()}${i}`;
      insUser.run(
        name,
        `${name}@member.example`,
        first,
        last,
        pending ? 0 : 1,
        at,
        pending ? `203.0.113.${i % 50}` : null,
      );
    }
    for (let i = 1; i <= LEADS; i++) {
      const a = {
        companySize: pick(rand, COMPANY_SIZES.values),
        industry: pick(rand, INDUSTRIES.values),
        role: pick(rand, BUSINESS_ROLES.values),
        yearsInRole: '',
        primaryChallenges: ['cybersecurity'],
        riskConcerns: [],
        growthGoals: [],
        intelligenceTopics: ['cyber-threats'],
        reportFrequency: 'monthly',
        urgency: rand() < 0.2 ? '' : pick(rand, URGENCIES.values),
        email: `lead${i}@company${i % 997}.example`,
        firstName: pick(rand, firsts),
        lastName: pick(rand, lasts),
        company: `Company ${i % 997}`,
        phone: '',
        communicationMethod: pick(rand, COMMUNICATION_METHODS.values),
        consultationInterest: rand() < 0.3,
      };
      const at = new Date(base + i * 5 * 60_000).toISOString();
      insLead.run(
        a.email,
        JSON.stringify(a),
        at,
        a.industry,
        a.companySize,
        a.urgency,
        a.consultationInterest ? 1 : 0,
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/**
 * An administrator: registered through the API, the role written beside it, signed in, and with the second
 * factor every administrator needs before the admin routes answer (issue 46), set up through the API.
 */
export async function adminAuth(base: string, dbPath: string): Promise<Record<string, string>> {
  const username = 'bench_admin';
  const headers = await benchUser(base, { username, email: 'bench-admin@example.com', last: 'Admin' }, () => {
    const db = new Database(dbPath);
    db.prepare("INSERT INTO user_roles (user_id, role) SELECT id, 'admin' FROM users WHERE username = ?").run(
      username,
    );
    db.close();
  });
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${base}${p}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ secret: string }>;
  };
  const { secret } = await post(API_PATHS.twoFactorSetup, { password: BENCH_PASSWORD });
  await post(API_PATHS.twoFactorConfirm, { code: generateSync({ secret }) });
  return headers;
}

const ROWS: { key: string; label: string; path: string; leads?: true }[] = [
  { key: 'members', label: 'members, first page (pending first)', path: '/api/admin/members' },
  { key: 'membersDeep', label: 'members, page 200 of 25', path: '/api/admin/members?page=200' },
  { key: 'membersSearch', label: 'members, search "emma12"', path: '/api/admin/members?q=emma12' },
  { key: 'leads', label: 'leads, first page', path: '/api/admin/leads', leads: true },
  {
    key: 'leadsFiltered',
    label: 'leads, consultation + urgency immediate + technology',
    path: '/api/admin/leads?consultation=yes&urgency=immediate&industry=technology',
    leads: true,
  },
  {
    key: 'leadsRange',
    label: 'leads, one month, 51-200 employees, page 3',
    path: '/api/admin/leads?from=2025-06-01&to=2025-06-30&companySize=51-200&page=3',
    leads: true,
  },
];

/** Seeds, starts the API, measures each list; a leads row is left out when the API has no leads list. */
export async function benchAdminLists(dir: string): Promise<{ rows: AdminRow[]; missing: string[] }> {
  const dbPath = path.join(dir, 'admin-lists.db');
  const seeded = Date.now();
  await seedAdminLists(dbPath);
  console.log(
    `[admin] seeded ${MEMBERS.toLocaleString('en')} members and ${LEADS.toLocaleString('en')} leads in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
  );
  const api = new ApiProcess(dbPath, { RATE_LIMITS: 'off' });
  await api.start();
  const rows: AdminRow[] = [];
  const missing: string[] = [];
  try {
    const headers = await adminAuth(api.base, dbPath);
    for (const row of ROWS) {
      const first = await fetch(`${api.base}${row.path}`, { headers });
      if (first.status !== 200) {
        if (!row.leads || first.status !== 404)
          throw new Error(`${row.path}: ${first.status} ${await first.text()}`);
        missing.push(row.label);
        console.log(`[admin] ${row.label}: skipped, GET ${row.path} is 404 (no leads list in this API yet)`);
        continue;
      }
      await api.settle();
      await cannon({ url: `${api.base}${row.path}`, headers, connections: ADMIN_CONNECTIONS, duration: 1 }); // warm-up
      const f = figure(
        await cannon({ url: `${api.base}${row.path}`, headers, connections: ADMIN_CONNECTIONS }),
      );
      rows.push({ ...f, key: row.key, label: row.label, path: row.path });
      console.log(`[admin] ${row.label}: ${formatFigure(f)}`);
    }
  } finally {
    await api.stop('SIGKILL');
  }
  return { rows, missing };
}

export function printAdminLists({ rows, missing }: { rows: AdminRow[]; missing: string[] }) {
  console.log(
    `\nadmin lists: ${ADMIN_CONNECTIONS} connections, ${DURATION} s per row, target p99 ≤ ${ADMIN_P99_TARGET_MS} ms`,
  );
  console.log('| list | req/s | p50 | p99 | target |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) {
    const ok = r.p99 <= ADMIN_P99_TARGET_MS && r.errors === 0;
    console.log(
      `| ${r.label} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50} ms | ${r.p99} ms | ${ok ? 'met' : 'MISSED'}${r.errors ? ` (${r.errors} errors)` : ''} |`,
    );
  }
  for (const label of missing) console.log(`| ${label} | — | — | — | not measured: no leads list |`);
}

/** The `--admin` mode: seed, measure, print, and keep the figures as JSON in bench-results/. */
export async function benchAdmin() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-bench-admin-'));
  try {
    const result = await benchAdminLists(dir);
    printAdminLists(result);
    const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const out = path.join(repoRoot, 'bench-results');
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, `api-admin-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const meta = { connections: ADMIN_CONNECTIONS, duration: DURATION, cpus: os.cpus().length };
    fs.writeFileSync(file, JSON.stringify({ ...meta, targetP99Ms: ADMIN_P99_TARGET_MS, ...result }, null, 2));
    console.log(`\nJSON: ${path.relative(repoRoot, file)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
