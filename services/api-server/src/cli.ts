import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { EmailSchema, PasswordSchema, ROLES, UsernameSchema } from '@app/contracts';
import * as v from 'valibot';
import { runBackupCommand } from './cli-backup';
import { DEPLOY_TOKEN_USAGE, runDeployTokenCommand } from './cli-deploy-tokens';
import { runLimitCommand } from './cli-limits';
import { loadConfig } from './config';
import { createContext } from './context';
import { databaseBackups } from './db/backup';
import { HttpError } from './errors';

const USAGE = `Usage: pnpm admin <command> [options]
  (on a host: node services/api-server/dist/admin.mjs <command> [options], infra/systemd/README.md)

Commands:
  create-admin [--email E] [--username U] [--password P]   create an active administrator (prompts for missing values)
  pending                                                  list accounts awaiting activation
  list                                                     list all accounts
  activate <email|username|id>                             activate an account
  grant <email|username|id> <role>                         grant a role (${ROLES.values.join(', ')})
  revoke <email|username|id> <role>                        revoke a role
  reset-2fa <email|username|id>                            remove a lost second factor (TOTP) and its recovery
                                                           codes, and end every session of the account
  limited [--hours N]                                      what the rate limits refused recently (default 24 h)
  pending-by-address                                       pending registrations counted per client address
  reject-pending --from <address> [--yes]                  reject (delete) every pending registration from one
                                                           address; lists them first, deletes with --yes
  backup <file> [--force]                                  online, consistent copy of the live database, checked
                                                           with integrity_check (--force overwrites <file>)
  restore <file> [--yes]                                   validate <file>, then copy it into the live database;
                                                           without --yes only says what it would do (exit 2)
${DEPLOY_TOKEN_USAGE}

The database is DB_PATH (default services/api-server/data/app.db), the same the server uses.`;

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

function check<S extends v.GenericSchema>(schema: S, value: string, field: string): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (!r.success) throw new Error(`${field}: ${r.issues[0]?.message}`);
  return r.output;
}

function table(
  rows: {
    id: number;
    username: string;
    email: string;
    is_active: boolean;
    roles: string[];
    created_at: string;
  }[],
) {
  if (rows.length === 0) {
    console.log('(none)');
    return;
  }
  for (const r of rows) {
    console.log(
      `${String(r.id).padStart(4)}  ${r.is_active ? 'active ' : 'PENDING'}  ${r.username.padEnd(20)} ${r.email.padEnd(32)} ${r.roles.join(',') || '-'}  ${r.created_at}`,
    );
  }
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      hours: { type: 'string' },
      from: { type: 'string' },
      yes: { type: 'boolean' },
      force: { type: 'boolean' },
      name: { type: 'string' },
      remote: { type: 'string' },
      env: { type: 'string' },
      admin: { type: 'boolean' },
    },
  });
}

export async function runCli(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (err) {
    console.error(errorLine(err)); // e.g. an unknown option: one line, not a stack trace
    return 1;
  }
  const { positionals, values } = parsed;
  const [cmd, ...rest] = positionals;
  if (!cmd || values.help) {
    console.log(USAGE);
    return cmd || values.help ? 0 : 1;
  }
  const config = loadConfig(process.env, { logLevel: 'silent' });
  if (cmd === 'backup' || cmd === 'restore') {
    // No context: neither needs the services, and a restore must not migrate or seed the live file first.
    try {
      return await runBackupCommand(databaseBackups(config), cmd, rest[0], values);
    } catch (err) {
      console.error(errorLine(err));
      return 1;
    }
  }
  const ctx = await createContext(config);
  try {
    switch (cmd) {
      case 'create-admin': {
        const email = check(EmailSchema, values.email ?? (await ask('Email: ')), 'email');
        const username = check(UsernameSchema, values.username ?? (await ask('Username: ')), 'username');
        const password = check(PasswordSchema, values.password ?? (await ask('Password: ')), 'password');
        const user = await ctx.accounts.createAdmin({
          username,
          email,
          password,
          name: { first: username, last: '' },
          address: { street: '', city: '', postal_code: '', country: '' },
        });
        console.log(`Created administrator #${user.id} ${user.username} <${user.email}>`);
        return 0;
      }
      case 'pending':
        table(await ctx.accounts.listUsers('pending'));
        return 0;
      case 'list':
        table(await ctx.accounts.listUsers('all'));
        return 0;
      case 'activate': {
        if (!rest[0]) throw new Error('activate needs <email|username|id>');
        const u = await ctx.accounts.activate(rest[0]);
        console.log(`Activated #${u.id} ${u.username} <${u.email}>`);
        return 0;
      }
      case 'grant':
      case 'revoke': {
        if (!rest[0] || !rest[1]) throw new Error(`${cmd} needs <email|username|id> <role>`);
        const u =
          cmd === 'grant'
            ? await ctx.accounts.grant(rest[0], rest[1])
            : await ctx.accounts.revoke(rest[0], rest[1]);
        console.log(`#${u.id} ${u.username} now has roles: ${u.roles.join(', ') || '(none)'}`);
        return 0;
      }
      case 'reset-2fa': {
        if (!rest[0]) throw new Error('reset-2fa needs <email|username|id>');
        const u = await ctx.accounts.resetTwoFactor(rest[0]);
        console.log(
          `Removed the second factor of #${u.id} ${u.username} <${u.email}> and ended its sessions. They log in with their password and set up two-factor authentication again in their profile.`,
        );
        return 0;
      }
      case 'deploy-token':
        return await runDeployTokenCommand(ctx, rest[0], values);
      default: {
        const code = await runLimitCommand(ctx, cmd, values);
        if (code >= 0) return code;
        console.error(`Unknown command "${cmd}".\n\n${USAGE}`);
        return 1;
      }
    }
  } catch (err) {
    console.error(errorLine(err));
    return 1;
  } finally {
    await ctx.close();
  }
}

function errorLine(err: unknown): string {
  return `Error: ${err instanceof HttpError || err instanceof Error ? err.message : String(err)}`;
}
