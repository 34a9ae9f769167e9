import type { DatabaseBackups, TableRows } from './db/backup';

/**
 * `pnpm admin backup <file> [--force]` and `pnpm admin restore <file> [--yes]` (issue 12). Returns the exit
 * code: 0 done, 1 refused or failed (thrown, the CLI prints one line), 2 a restore without --yes.
 */
export async function runBackupCommand(
  backups: DatabaseBackups,
  cmd: 'backup' | 'restore',
  file: string | undefined,
  opts: { force?: boolean; yes?: boolean },
): Promise<number> {
  if (!file) throw new Error(`${cmd} needs <file>`);
  if (cmd === 'backup') {
    const r = await backups.backup(file, { force: opts.force });
    console.log(`Backed up ${backups.target} to ${r.file} (${size(r.bytes)}), ${r.checked}`);
    printTables(r.tables);
    return 0;
  }
  const r = await backups.restore(file, { dryRun: !opts.yes });
  const migrated =
    r.schemaVersion < r.codeVersion ? `, migrated to ${r.codeVersion} before it goes live` : '';
  const what = `${r.file} (${size(r.bytes)}, schema version ${r.schemaVersion}${migrated})`;
  if (!r.restored) {
    console.log(`Would restore ${what} into ${backups.target}, replacing everything in it with:`);
    printTables(r.tables);
    console.log(
      'Running API servers may stay up: they read the restored content at once. Add --yes to restore.',
    );
    return 2;
  }
  console.log(`Restored ${what} into ${backups.target}:`);
  printTables(r.tables);
  return 0;
}

function printTables(tables: TableRows[]) {
  const width = Math.max(0, ...tables.map((t) => t.name.length));
  for (const t of tables) console.log(`  ${t.name.padEnd(width)}  ${String(t.rows).padStart(8)} rows`);
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${n.toFixed(1)} ${units[i]}, ${bytes} bytes`;
}
