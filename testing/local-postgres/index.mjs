// A throwaway PostgreSQL server in a folder of its own (issue 12): Debian's PostgreSQL binaries, a new
// cluster made with initdb, listening on 127.0.0.1 at a port of its own. Used by the API tests on
// PostgreSQL, `pnpm start:cluster` and `pnpm test:cluster`; nothing here touches a system cluster.
// PostgreSQL refuses to run as root: as root, the server's commands run as the `postgres` user that
// Debian's package creates, and the folder is given to it.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder of Debian's PostgreSQL programs (the newest version installed under `root`), or null. The
 * prerequisites check (scripts/prerequisites.mjs: `pnpm start:cluster`, scripts/install.sh) asks this too.
 */
export function findPostgresBinDir(root = '/usr/lib/postgresql') {
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length === 0 ? null : path.join(root, versions[0], 'bin');
}

/** The folder of Debian's PostgreSQL programs (the newest installed), or a clear error. */
export function postgresBinDir() {
  const bin = findPostgresBinDir();
  if (!bin) {
    throw new Error(
      'PostgreSQL is not installed: run `bash scripts/install.sh --postgres` (apt-get install -y postgresql).',
    );
  }
  return bin;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs one of PostgreSQL's programs, as the postgres user when we are root. */
function run(bin, args, { quiet = false } = {}) {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${path.basename(bin)} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
  if (!quiet && result.stdout.trim()) process.stderr.write(result.stdout);
  return result.stdout;
}

/**
 * Starts a cluster in `dir` on `port`: a new one (the folder made empty first), or with `keep` the one
 * already there, data and all (`pnpm start:cluster` keeps its database between runs). `fast` turns off
 * fsync and friends: right for tests, whose data is thrown away; the product's cluster keeps PostgreSQL's
 * defaults. Returns the URL of a database, ways to make them, and stop().
 */
export function startLocalPostgres({ dir, port, fast = false, keep = false }) {
  const bin = postgresBinDir();
  const data = path.join(dir, 'data');
  const sockets = path.join(dir, 'sockets');
  // A server a killed run left behind in this folder is stopped first (it would hold the port).
  if (fs.existsSync(path.join(data, 'postmaster.pid'))) {
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { quiet: true });
    } catch {
      // not running: the pid file is stale
    }
  }
  const existing = keep && fs.existsSync(path.join(data, 'PG_VERSION'));
  if (!existing) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(sockets, { recursive: true });
  if (isRoot()) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  if (!existing) {
    // No locale: text sorts and compares byte by byte, as SQLite does (the schema also says COLLATE "C").
    const init = ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8'];
    run(path.join(bin, 'initdb'), init, { quiet: true });
  }
  const options = [
    `-p ${port}`,
    `-k ${sockets}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    ...(fast ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
  ].join(' ');
  const logFile = path.join(dir, 'server.log');
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', logFile, '-w', 'start'], { quiet: true });
  const url = (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const psql = (sql) =>
    run(
      path.join(bin, 'psql'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-qAt', '-c', sql],
      {
        quiet: true,
      },
    );
  const checkName = (name) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
  };
  return {
    url,
    bin,
    logFile,
    /** A new empty database (names are ours: letters, digits, underscores). */
    createDatabase(name) {
      checkName(name);
      psql(`CREATE DATABASE ${name}`);
      return url(name);
    },
    /** The database `name`, made when missing. */
    ensureDatabase(name) {
      checkName(name);
      if (psql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`).trim() !== '1')
        psql(`CREATE DATABASE ${name}`);
      return url(name);
    },
    stop() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], { quiet: true });
      } catch {
        // already stopped
      }
    },
  };
}
