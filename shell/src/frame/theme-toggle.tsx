import { useThemeMode } from '@app/ui';
import { css, type Theme } from '@emotion/react';

export function ThemeToggle() {
  const { mode, toggle } = useThemeMode();
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
      css={(t: Theme) => css`
        width: 40px;
        height: 40px;
        border-radius: ${t.radius.pill};
        border: 1px solid ${t.color.border};
        background: ${t.color.surface};
        color: ${t.color.text};
        cursor: pointer;
        font-size: 1.1rem;
      `}
    >
      <span aria-hidden="true">{mode === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}
