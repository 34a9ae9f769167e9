import { createConfig } from '@app/federation/webpack';
import { THEME_BOOT_SCRIPT, THEME_CSS } from '@app/ui/theme-css';

export default (_env, argv) =>
  createConfig({
    name: 'shell',
    dirname: import.meta.dirname,
    port: 3000,
    title: 'Risk & Opportunity Intelligence',
    mode: argv.mode,
    templateParameters: { themeCss: THEME_CSS, themeBootScript: THEME_BOOT_SCRIPT },
  });
