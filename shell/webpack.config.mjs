import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    app: 'shell',
    dirname: import.meta.dirname,
    title: 'Risk & Opportunity Intelligence',
    mode: argv.mode,
    // Fetched by the first script (shell/src/early): preloaded so they do not wait for it.
    preloadJson: ['/config.json', '/deployment.json'],
  });
