import { configureApi } from '@app/api-client';
import { registerReactCopy } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import * as React from 'react';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadRuntimeConfig, StartupError } from './config/runtime-config';
import { StartupErrorScreen } from './errors/app-error-screen';
import { takePrerenderedRegion } from './federation/prerendered-region';
import { registerAllRemotes } from './federation/remotes';
import { configureHealthReports } from './rollout/health';
import { prepareRollout } from './rollout/prepare';

registerReactCopy(React);

async function start() {
  // Before React replaces the server's picture of the page: keep the route's region to show until it is live.
  takePrerenderedRegion();
  const root = createRoot(document.getElementById('root')!);
  try {
    const config = await loadRuntimeConfig();
    configureApi({ baseUrl: config.apiBaseUrl });
    configureHealthReports(config.apiBaseUrl);
    const rollout = await prepareRollout(config);
    registerAllRemotes(rollout);
    // A transition: React renders the first screen in slices of a few milliseconds and lets the browser
    // breathe between them, instead of one long task (Total Blocking Time on slow phones).
    startTransition(() => {
      root.render(
        <StrictMode>
          <App config={config} preview={rollout.preview} />
        </StrictMode>,
      );
    });
  } catch (error) {
    const detail = error instanceof StartupError ? error.message : String(error);
    root.render(
      <AppThemeProvider>
        <StartupErrorScreen detail={detail} />
      </AppThemeProvider>,
    );
  }
}

void start();
