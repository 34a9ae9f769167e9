import { configureApi, primeResponses, readPrimedResponses } from '@app/api-client';
import { StrictMode, startTransition } from 'react';
import type { App as AppComponent } from './app';
import { loadRuntimeConfig, type RuntimeConfig, StartupError } from './config/runtime-config';
import { nextTask } from './early/next-task';
import { registerAllRemotes } from './federation/remotes';
import { configureHealthReports } from './rollout/health';
import { watchPageHealth } from './rollout/health-watch';
import { pagePlan } from './rollout/page-plan';
import { prepareRollout, type RolloutState } from './rollout/prepare';

/** The runtime config, the API client and the rollout decision: everything the first render needs. */
export async function prepare(): Promise<{ config: RuntimeConfig; rollout: RolloutState }> {
  const config = await loadRuntimeConfig();
  configureApi({ baseUrl: config.apiBaseUrl });
  // The API's answers the server rendered the route's first screen from (if any): its remote starts from them.
  primeResponses(readPrimedResponses());
  // This page view's health ticket, from the edge's plan (none where no edge served the page: no reports).
  configureHealthReports(config.apiBaseUrl, pagePlan()?.health ?? null);
  const rollout = await prepareRollout(config);
  registerAllRemotes(rollout);
  watchPageHealth(rollout.plan);
  return { config, rollout };
}

/**
 * React DOM is evaluated in a task of its own (it is the largest module of all) while the config is fetched;
 * the root is created on the page's #root once it is there.
 */
export async function renderer() {
  await nextTask();
  const { createRoot } = await import(/* webpackMode: "eager" */ 'react-dom/client');
  const root = createRoot(document.getElementById('root')!);
  return {
    app(config: RuntimeConfig, rollout: RolloutState, App: typeof AppComponent) {
      // A transition: React renders the first screen in slices of a few milliseconds and lets the browser
      // breathe between them, instead of one long task.
      startTransition(() => {
        root.render(
          <StrictMode>
            <App config={config} preview={rollout.preview} />
          </StrictMode>,
        );
      });
    },
    async startupError(error: unknown) {
      const detail = error instanceof StartupError ? error.message : String(error);
      // Only on this path: the theme and the error screen are not needed to start.
      const [{ AppThemeProvider }, { StartupErrorScreen }] = await Promise.all([
        import(/* webpackMode: "eager" */ '@app/ui'),
        import(/* webpackMode: "eager" */ './errors/app-error-screen'),
      ]);
      root.render(
        <AppThemeProvider>
          <StartupErrorScreen detail={detail} />
        </AppThemeProvider>,
      );
    },
  };
}
