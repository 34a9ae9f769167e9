import { test as base, expect } from '@playwright/test';

/**
 * Every spec imports `test` from here: the suite runs with the production CSP enforced (issue 11), and a
 * test fails when any page of its context reports a violation, with the directive and what was blocked.
 * (Pages in contexts a test makes itself are covered by the server-side report check in csp-teardown.ts.)
 */
export const test = base.extend<{ cspGuard: undefined }>({
  cspGuard: [
    async ({ context }, use) => {
      const violations: string[] = [];
      await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
        violations.push(text);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __reportCspViolation?: (text: string) => void })
            .__reportCspViolation;
          report?.(
            `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`,
          );
        });
      });
      await use(undefined);
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

// Everything else (types such as Page) as Playwright exports it; `test` above takes the place of its own.
export * from '@playwright/test';
export { expect };
