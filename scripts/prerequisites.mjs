// What the scripts need from Debian besides Node, found in one place (issue 48): `pnpm start:cluster` (and
// everything that starts the cluster: its tests, the chaos run, the benches; Prometheus when it is asked
// for), nginx's own tests, the systemd check, and scripts/install.sh (which `bash scripts/run-cluster.sh` and `bash scripts/test.sh` run) all ask
// this module, so a missing program is named the same way everywhere, with the command that installs it,
// instead of failing later ("nginx -t refused …: null").
//
//   node scripts/prerequisites.mjs nginx postgres             prints where each is, or exits 1 naming what is
//                                                             missing and the command that installs it
//   node scripts/prerequisites.mjs --debian nginx postgres    prints the Debian packages to install (those
//                                                             missing), space-separated: scripts/install.sh
//
// Programs are looked for on PATH and then in Debian's sbin folders: nginx is /usr/sbin/nginx, which a
// user's PATH (not root's) leaves out; the scripts run the path found here, so nginx works for them too.
// PostgreSQL's programs are in /usr/lib/postgresql/<version>/bin (testing/local-postgres finds them).
import fs from 'node:fs';
import path from 'node:path';
import { findPostgresBinDir } from '@app/local-postgres';

/** Where programs are looked for after PATH: Debian's sbin folders. */
export const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

const executable = (file) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * The absolute path of program `name` on `searchPath` (PATH) or in `systemDirs`, or null.
 * @param {string} name
 * @param {{ searchPath?: string, systemDirs?: string[] }} [o]
 */
export function findProgram(name, { searchPath = process.env.PATH ?? '', systemDirs = SYSTEM_DIRS } = {}) {
  const dirs = [...searchPath.split(path.delimiter).filter(Boolean), ...systemDirs];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    if (executable(file)) return path.resolve(file);
  }
  return null;
}

/**
 * Each prerequisite: what it is for, its Debian package, and how it is found (a path, or null).
 * @type {Record<string, { what: string, debian: string, find: (o: object) => string | null }>}
 */
export const PREREQUISITES = {
  nginx: {
    what: 'nginx, the front door of the cluster',
    debian: 'nginx',
    find: (o) => findProgram('nginx', o),
  },
  postgres: {
    what: "PostgreSQL's server programs (initdb, pg_ctl, postgres) for the cluster's own database",
    debian: 'postgresql',
    find: (o) => findPostgresBinDir(o.postgresRoot),
  },
  chromium: {
    what: 'Chromium, the browser of the e2e suite and the benches',
    debian: 'chromium',
    find: (o) => (executable(o.chromium ?? '/usr/bin/chromium') ? (o.chromium ?? '/usr/bin/chromium') : null),
  },
  wapiti: {
    what: 'wapiti, the scanner of `pnpm test:security`',
    debian: 'wapiti',
    find: (o) => findProgram('wapiti', o),
  },
  prometheus: {
    what: "Prometheus, which the cluster can start to scrape its instances' /metrics (--prometheus)",
    debian: 'prometheus',
    find: (o) => findProgram('prometheus', o),
  },
  'systemd-analyze': {
    what: 'systemd-analyze, which `pnpm test:systemd` checks the units with',
    debian: 'systemd',
    find: (o) => findProgram('systemd-analyze', o),
  },
};

/**
 * Which of `names` this machine has (their paths) and which it lacks.
 * @param {string[]} names  keys of PREREQUISITES
 * @param {{ searchPath?: string, systemDirs?: string[], postgresRoot?: string, chromium?: string }} [o]
 */
export function checkPrerequisites(names, o = {}) {
  const found = {};
  const missing = [];
  for (const name of names) {
    const prerequisite = PREREQUISITES[name];
    if (!prerequisite) throw new Error(`unknown prerequisite ${JSON.stringify(name)}`);
    const where = prerequisite.find(o);
    if (where) found[name] = where;
    else missing.push({ name, ...prerequisite });
  }
  return { found, missing };
}

/** The command that installs `packages` (sudo unless root). */
export function installCommand(packages, { root = process.getuid?.() === 0 } = {}) {
  const sudo = root ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}apt-get install -y ${packages.join(' ')}`;
}

/** What `forWhat` needs and this machine lacks, and the command that installs it. */
export function missingMessage(missing, forWhat, o = {}) {
  const packages = [...new Set(missing.map((m) => m.debian))];
  return [
    `${forWhat} needs what this machine does not have:`,
    ...missing.map((m) => `  - ${m.what} (Debian package ${m.debian})`),
    `Install ${missing.length > 1 ? 'them' : 'it'} with:`,
    `  ${installCommand(packages, o)}`,
    `or run \`bash scripts/install.sh ${missing.map((m) => FLAG_OF[m.name]).join(' ')}\`, which does the same.`,
  ].join('\n');
}

/** scripts/install.sh's flag for each prerequisite. */
export const FLAG_OF = {
  nginx: '--nginx',
  postgres: '--postgres',
  chromium: '--browser',
  wapiti: '--scanner',
  prometheus: '--prometheus',
  'systemd-analyze': '--systemd',
};

/**
 * The paths of `names`, or an Error (code MISSING_PREREQUISITES) whose message names what is missing and
 * the command that installs it.
 * @param {string[]} names
 * @param {string} forWhat  who needs them, for the message ("pnpm start:cluster")
 * @param {object} [o]  as checkPrerequisites
 * @returns {Record<string, string>}
 */
export function requirePrerequisites(names, forWhat, o = {}) {
  const { found, missing } = checkPrerequisites(names, o);
  if (missing.length > 0) {
    throw Object.assign(new Error(missingMessage(missing, forWhat, o)), { code: 'MISSING_PREREQUISITES' });
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const debian = args[0] === '--debian';
  const names = debian ? args.slice(1) : args;
  const unknown = names.filter((name) => !PREREQUISITES[name]);
  if (names.length === 0 || unknown.length > 0) {
    console.error(
      `usage: node scripts/prerequisites.mjs [--debian] <${Object.keys(PREREQUISITES).join('|')}>…${unknown.length > 0 ? `\nunknown: ${unknown.join(', ')}` : ''}`,
    );
    process.exit(2);
  }
  const { found, missing } = checkPrerequisites(names);
  if (debian) {
    console.log([...new Set(missing.map((m) => m.debian))].join(' '));
    process.exit(0);
  }
  if (missing.length > 0) {
    console.error(missingMessage(missing, 'This checkout'));
    process.exit(1);
  }
  for (const [name, where] of Object.entries(found)) console.log(`${name.padEnd(16)} ${where}`);
}
