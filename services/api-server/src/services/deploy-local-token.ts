import fs from 'node:fs';
import path from 'node:path';
import { DEPLOY_TOKEN_PATTERN } from '@app/contracts/deploy';
import { type DeployTokenService, newDeployToken } from './deploy-tokens';

export const LOCAL_TOKEN_FILE = 'local-deploy-token';

/**
 * The install's own deploy credential: `<DEPLOY_DIR>/local-deploy-token` (owner-only), which the CLI on
 * this machine sends when it is given no token. Every API instance sharing the folder must end with the
 * same token: the file's first writer wins (O_EXCL), everyone then reads the file and stores its hash as
 * the admin token `local`.
 */
export async function ensureLocalDeployToken(deployDir: string, tokens: DeployTokenService): Promise<string> {
  const file = path.join(deployDir, LOCAL_TOKEN_FILE);
  const read = () => {
    try {
      const text = fs.readFileSync(file, 'utf8').trim();
      return DEPLOY_TOKEN_PATTERN.test(text) ? text : null;
    } catch {
      return null;
    }
  };
  let token = read();
  if (!token) {
    fs.mkdirSync(deployDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${newDeployToken()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    token = read();
    // A file that exists but holds no token (emptied by hand, or a writer caught between create and
    // write): wait briefly for that writer, then replace it.
    for (let i = 0; !token && i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      token = read();
    }
    if (!token) {
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, `${newDeployToken()}\n`, { mode: 0o600 });
      fs.renameSync(tmp, file);
      token = read() as string;
    }
  }
  await tokens.ensureLocal(token);
  return token;
}
