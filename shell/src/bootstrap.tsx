import { configureApi } from '@app/api-client';
import { registerReactCopy } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import * as React from 'react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadRuntimeConfig, StartupError } from './config/runtime-config';
import { StartupErrorScreen } from './errors/app-error-screen';
import { registerAllRemotes } from './federation/remotes';
import { configureHealthReports } from './rollout/health';
import { prepareRollout } from './rollout/prepare';

registerReactCopy(React);

async function start() {
  const root = createRoot(document.getElementById('root')!);
  try {
    const config = await loadRuntimeConfig();
    configureApi({ baseUrl: config.apiBaseUrl });
    configureHealthReports(config.apiBaseUrl);
    const rollout = await prepareRollout(config);
    registerAllRemotes(rollout);
    root.render(
      <StrictMode>
        <App config={config} preview={rollout.preview} />
      </StrictMode>,
    );
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
