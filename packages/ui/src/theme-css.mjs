// The colour tokens of both themes as CSS custom properties. Plain JS so that the HTML template can inline
// it into <head> (with the theme-choosing script) and the first paint already has the right colours.
export const THEME_STORAGE_KEY = 'theme';

const light = {
  bg: '#f6f7fb',
  surface: '#ffffff',
  'surface-alt': '#eef1f7',
  text: '#17202e',
  'text-muted': '#4f5b6d',
  border: '#d5dbe5',
  primary: '#1f4fbf',
  'primary-hover': '#183f99',
  'primary-text': '#ffffff',
  accent: '#0f7a6c',
  danger: '#b3261e',
  'danger-bg': '#fdecea',
  success: '#1e6b35',
  'success-bg': '#e6f4ea',
  warning: '#8a5300',
  'warning-bg': '#fff4e0',
  focus: '#ff9f1c',
  skeleton: '#e3e7ef',
  shadow: '0 1px 3px rgba(16,24,40,.08), 0 1px 2px rgba(16,24,40,.06)',
};

const dark = {
  bg: '#0f141c',
  surface: '#171e29',
  'surface-alt': '#1f2836',
  text: '#e7ebf2',
  'text-muted': '#a6b0c0',
  border: '#2e3a4c',
  primary: '#7aa2ff',
  'primary-hover': '#9bb9ff',
  'primary-text': '#0b1220',
  accent: '#4fd1bd',
  danger: '#ff8a80',
  'danger-bg': '#3a1715',
  success: '#7ddc94',
  'success-bg': '#12301c',
  warning: '#ffc266',
  'warning-bg': '#3a2a0f',
  focus: '#ffb454',
  skeleton: '#263142',
  shadow: '0 1px 3px rgba(0,0,0,.5)',
};

const vars = (tokens) =>
  Object.entries(tokens)
    .map(([k, val]) => `--c-${k}:${val};`)
    .join('');

export const THEME_CSS = `:root,[data-theme=light]{color-scheme:light;${vars(light)}}[data-theme=dark]{color-scheme:dark;${vars(dark)}}html,body{margin:0;background:var(--c-bg);color:var(--c-text);font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.5}*,*::before,*::after{box-sizing:border-box}:focus-visible{outline:3px solid var(--c-focus);outline-offset:2px}`;

// Runs before first paint: stored choice, else the system preference. Keep it tiny and dependency-free.
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t!=='dark'&&t!=='light'){t=window.matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.setAttribute('data-theme',t)}catch(e){document.documentElement.setAttribute('data-theme','light')}})();`;

export const TOKEN_NAMES = Object.keys(light);
