import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from '@playwright/test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// axe-core as Lighthouse (a root dev dependency) ships it: the same engine as `pnpm bench:web`'s
// accessibility audit, so the two never disagree about a rule.
const AXE_PATH = createRequire(createRequire(path.join(ROOT, 'package.json')).resolve('lighthouse')).resolve(
  'axe-core/axe.min.js',
);

/** Serious and critical axe violations on the page as it is now (rule id and the first offending node). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as an inline <script>: the page's CSP (rightly) refuses inline scripts.
  await page.evaluate(fs.readFileSync(AXE_PATH, 'utf8'));
  return page.evaluate(async () => {
    type AxeResults = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<AxeResults> } }).axe;
    const { violations } = await axe.run(document);
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
  });
}

/** With SHOTS_DIR set, a run leaves screenshots there for a person to look at (never in the repo). */
export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  if (!process.env.SHOTS_DIR) return;
  fs.mkdirSync(process.env.SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}.png`), fullPage });
}
