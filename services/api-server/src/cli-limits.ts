import type { AppContext } from './context';
import { PendingRegistrations } from './services/pending-registrations';

/** `pnpm admin limited`, `pending-by-address` and `reject-pending` (issue 19). Returns the exit code. */
export async function runLimitCommand(
  ctx: AppContext,
  cmd: string,
  opts: { hours?: string; from?: string; yes?: boolean },
): Promise<number> {
  const pending = new PendingRegistrations(ctx.sql);
  switch (cmd) {
    case 'limited': {
      const hours = Number(opts.hours ?? 24);
      if (!Number.isFinite(hours) || hours <= 0) throw new Error('--hours must be a positive number');
      const rows = await ctx.rateLimits.refusals(ctx.now() - hours * 3600_000);
      if (rows.length === 0) {
        console.log(`(nothing limited in the last ${hours} h)`);
        return 0;
      }
      console.log('last refused              limit       refused  who                            last route');
      for (const r of rows) {
        console.log(
          `${new Date(r.lastAt).toISOString()}  ${r.limit.padEnd(10)} ${String(r.count).padStart(8)}  ${(await who(ctx, r.subject)).padEnd(30)} ${r.route}`,
        );
      }
      return 0;
    }
    case 'pending-by-address': {
      const rows = await pending.byAddress();
      if (rows.length === 0) console.log('(none)');
      for (const r of rows)
        console.log(
          `${String(r.count).padStart(6)}  ${(r.from ?? '(unknown)').padEnd(40)} newest ${r.newest}`,
        );
      return 0;
    }
    case 'reject-pending': {
      if (!opts.from) throw new Error('reject-pending needs --from <address> (see pending-by-address)');
      const rows = await pending.from(opts.from);
      if (!opts.yes) {
        for (const r of rows)
          console.log(
            `${String(r.id).padStart(4)}  ${r.username.padEnd(20)} ${r.email.padEnd(32)} ${r.created_at}`,
          );
        console.log(
          `${rows.length} pending registration(s) from ${opts.from}. Add --yes to reject (delete) them; active accounts are never touched.`,
        );
        return 0;
      }
      console.log(`Rejected ${await pending.reject(opts.from)} pending registration(s) from ${opts.from}.`);
      return 0;
    }
    default:
      return -1;
  }
}

/** An account subject as "#42 jane <jane@example.com>", an address as it is. */
async function who(ctx: AppContext, subject: string): Promise<string> {
  const m = /^account:(\d+)$/.exec(subject);
  if (!m) return subject;
  const u = await ctx.accounts.resolveUser(Number(m[1]));
  return u ? `#${u.id} ${u.username} <${u.email}>` : `#${m[1]} (deleted)`;
}
