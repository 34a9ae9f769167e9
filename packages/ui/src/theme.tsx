import { ThemeProvider as EmotionThemeProvider, Global } from '@emotion/react';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { THEME_CSS, THEME_STORAGE_KEY } from './theme-css.mjs';

export type ThemeMode = 'light' | 'dark';

/** Colours are CSS variables, so switching theme is one attribute on <html> and never re-renders styles. */
const color = (name: string) => `var(--c-${name})`;

export const theme = {
  color: {
    bg: color('bg'),
    surface: color('surface'),
    surfaceAlt: color('surface-alt'),
    text: color('text'),
    textMuted: color('text-muted'),
    border: color('border'),
    primary: color('primary'),
    primaryHover: color('primary-hover'),
    primaryText: color('primary-text'),
    accent: color('accent'),
    danger: color('danger'),
    dangerBg: color('danger-bg'),
    success: color('success'),
    successBg: color('success-bg'),
    warning: color('warning'),
    warningBg: color('warning-bg'),
    skeleton: color('skeleton'),
  },
  shadow: color('shadow'),
  radius: { sm: '6px', md: '10px', lg: '16px', pill: '999px' },
  space: (n: number) => `${n * 4}px`,
  font: { small: '0.875rem', body: '1rem', h3: '1.25rem', h2: '1.6rem', h1: '2.25rem' },
  maxWidth: '1120px',
} as const;
export type AppTheme = typeof theme;

declare module '@emotion/react' {
  export interface Theme extends AppTheme {}
}

function currentMode(): ThemeMode {
  const attr = document.documentElement.getAttribute('data-theme');
  if (attr === 'dark' || attr === 'light') return attr;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

interface ThemeModeValue {
  mode: ThemeMode;
  toggle: () => void;
}
const ThemeModeContext = createContext<ThemeModeValue>({ mode: 'light', toggle: () => undefined });

/** Emotion theme + the day/night mode. The HTML boot script already chose the mode before first paint. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(currentMode);
  useEffect(() => {
    document.documentElement.setAttribute('data-theme', mode);
  }, [mode]);
  const toggle = useCallback(() => {
    setMode((m) => {
      const next = m === 'dark' ? 'light' : 'dark';
      try {
        localStorage.setItem(THEME_STORAGE_KEY, next);
      } catch {
        // The choice then lasts for this page only.
      }
      return next;
    });
  }, []);
  const value = useMemo(() => ({ mode, toggle }), [mode, toggle]);
  return (
    <ThemeModeContext.Provider value={value}>
      <EmotionThemeProvider theme={theme}>
        <Global styles={THEME_CSS} />
        {children}
      </EmotionThemeProvider>
    </ThemeModeContext.Provider>
  );
}

export function useThemeMode(): ThemeModeValue {
  return useContext(ThemeModeContext);
}
