import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    app: 'mf-public-pages',
    dirname: import.meta.dirname,
    title: 'Public pages (standalone)',
    mode: argv.mode,
  });
