import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    name: 'mf_public_pages',
    dirname: import.meta.dirname,
    port: 3004,
    title: 'Public pages (standalone)',
    mode: argv.mode,
    exposes: { './App': './src/app.tsx' },
  });
