import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    name: 'mf_survey',
    dirname: import.meta.dirname,
    port: 3003,
    title: 'Survey (standalone)',
    mode: argv.mode,
    exposes: { './App': './src/app.tsx' },
  });
