import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    name: 'mf_account',
    dirname: import.meta.dirname,
    port: 3001,
    title: 'Account (standalone)',
    mode: argv.mode,
    exposes: { './App': './src/app.tsx' },
  });
