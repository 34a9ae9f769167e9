import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    app: 'mf-account',
    dirname: import.meta.dirname,
    title: 'Account (standalone)',
    mode: argv.mode,
  });
