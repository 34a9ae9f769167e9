import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    app: 'mf-research',
    dirname: import.meta.dirname,
    title: 'Research (standalone)',
    mode: argv.mode,
  });
