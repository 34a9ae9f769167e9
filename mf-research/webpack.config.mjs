import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    name: 'mf_research',
    dirname: import.meta.dirname,
    port: 3002,
    title: 'Research (standalone)',
    mode: argv.mode,
    exposes: { './App': './src/app.tsx' },
  });
