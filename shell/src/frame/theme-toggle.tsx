import { MoonIcon, SunIcon, useThemeMode } from '@app/ui';
import { css, type Theme } from '@emotion/react';

const iconCss = (t: Theme) => css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 40px;
  height: 40px;
  padding: 0;
  border-radius: ${t.radius.pill};
  border: 1px solid ${t.color.border};
  background: ${t.color.surface};
  color: ${t.color.text};
  cursor: pointer;
  &:hover { border-color: ${t.color.primary}; color: ${t.color.primary}; }
`;

const rowCss = (t: Theme) => css`
  display: flex;
  align-items: center;
  gap: ${t.space(3)};
  width: 100%;
  min-height: 48px;
  padding: 0 ${t.space(3)};
  border-radius: ${t.radius.sm};
  border: 1px solid ${t.color.border};
  background: ${t.color.surface};
  color: ${t.color.text};
  font: inherit;
  font-weight: 500;
  cursor: pointer;
  &:hover { border-color: ${t.color.primary}; }
`;

/**
 * The day/night switch. Its name says what a press does ("Switch to dark mode"); the icon shows the mode it
 * leads to. `row` is the mobile menu's full-width variant, whose visible words are part of that name.
 */
export function ThemeToggle({ variant = 'icon' }: { variant?: 'icon' | 'row' }) {
  const { mode, toggle } = useThemeMode();
  const next = mode === 'dark' ? 'light' : 'dark';
  const Icon = next === 'dark' ? MoonIcon : SunIcon;
  const label = `Switch to ${next} mode`;
  if (variant === 'row') {
    return (
      <button type="button" onClick={toggle} aria-label={label} css={rowCss}>
        <Icon size={20} />
        <span>{next === 'dark' ? 'Dark mode' : 'Light mode'}</span>
      </button>
    );
  }
  return (
    <button type="button" onClick={toggle} aria-label={label} title={label} css={iconCss}>
      <Icon size={20} />
    </button>
  );
}
