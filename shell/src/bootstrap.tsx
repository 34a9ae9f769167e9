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

registerReactCopy(React);

async function start() {
  const root = createRoot(document.getElementById('root')!);
  try {
    const config = await loadRuntimeConfig();
    configureApi({ baseUrl: config.apiBaseUrl });
    registerAllRemotes(config);
    root.render(
      <StrictMode>
        <App config={config} />
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
