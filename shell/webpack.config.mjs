import { createConfig } from '@app/federation/webpack';

export default (_env, argv) =>
  createConfig({
    name: 'shell',
    dirname: import.meta.dirname,
    port: 3000,
    title: 'Risk & Opportunity Intelligence',
    mode: argv.mode,
  });
