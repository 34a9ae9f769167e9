import { createConfig } from '@app/federation/webpack';
import { THEME_BOOT_SCRIPT, THEME_CSS } from '@app/ui/theme-css';

export default (_env, argv) =>
  createConfig({
    name: 'mf_survey',
    dirname: import.meta.dirname,
    port: 3003,
    title: 'Survey (standalone)',
    mode: argv.mode,
    exposes: { './App': './src/remote-entry.tsx' },
    templateParameters: { themeCss: THEME_CSS, themeBootScript: THEME_BOOT_SCRIPT },
  });
