import { createConfig } from '@app/webpack-config';

export default (_env, argv) =>
  createConfig({
    app: 'mf-survey',
    dirname: import.meta.dirname,
    title: 'Survey (standalone)',
    mode: argv.mode,
  });
