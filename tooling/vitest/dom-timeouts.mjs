// Testing Library's findBy*/waitFor give up after 1 s by default. A lazily loaded screen under user-event on
// a busy 2-core CI machine takes longer than that (mf-survey's CSV export failed so, and passed alone), so
// every React package waits up to 5 s: a test still fails when the thing never appears, only later.
// Resolved from the package under test (this folder does not depend on Testing Library itself).
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const { configure } = await import(require.resolve('@testing-library/react'));
configure({ asyncUtilTimeout: 5_000 });
