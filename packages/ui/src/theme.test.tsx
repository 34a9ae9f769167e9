import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { usePageTitle } from './page-title';
import { AppThemeProvider, useThemeMode } from './theme';
import { THEME_STORAGE_KEY } from './theme-css.mjs';

function Toggle() {
  const { mode, toggle } = useThemeMode();
  return (
    <button type="button" onClick={toggle}>
      {mode}
    </button>
  );
}

afterEach(() => {
  document.documentElement.removeAttribute('data-theme');
  localStorage.clear();
});

describe('AppThemeProvider', () => {
  it('starts in the mode the page was served in and toggles it on <html>, remembering the choice', async () => {
    document.documentElement.setAttribute('data-theme', 'dark');
    render(
      <AppThemeProvider>
        <Toggle />
      </AppThemeProvider>,
    );
    const button = screen.getByRole('button', { name: 'dark' });
    await userEvent.click(button);
    expect(button).toHaveTextContent('light');
    expect(document.documentElement).toHaveAttribute('data-theme', 'light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    await userEvent.click(button);
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });
});

describe('usePageTitle', () => {
  function Page({ title }: { title: string }) {
    usePageTitle(title);
    return null;
  }

  it('names the tab "<screen> | <company>" and follows the screen', () => {
    const { rerender } = render(<Page title="Login" />);
    expect(document.title).toBe('Login | Risk & Opportunity Intelligence');
    rerender(<Page title="Register" />);
    expect(document.title).toBe('Register | Risk & Opportunity Intelligence');
  });
});
