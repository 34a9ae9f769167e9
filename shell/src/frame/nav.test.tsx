import { MESSAGES } from '@app/contracts';
import { MemoryRouter, useLocation } from '@app/router';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NotFound } from '../errors/not-found';
import { renderWithNav, useQuietApi } from '../test/frame-kit';

useQuietApi();

function Where() {
  return <p>at {useLocation().pathname}</p>;
}

const renderNav = (path = '/about') => renderWithNav(path, <Where />);

/** The menu the button controls, found the way assistive technology finds it: through aria-controls. */
function menuOf(button: HTMLElement): HTMLElement {
  const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (!menu) throw new Error('aria-controls names no element');
  return menu;
}

async function openMenu() {
  const button = screen.getByRole('button', { name: 'Menu' });
  await userEvent.click(button);
  return { button, menu: menuOf(button) };
}

describe('mobile menu', () => {
  it('is closed at first, and its button says so', () => {
    renderNav();
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(menuOf(button)).not.toBeVisible();
  });

  it('opens with the links, the theme toggle and focus on the first link; the page stops scrolling', async () => {
    renderNav();
    const { button, menu } = await openMenu();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAccessibleName('Close menu');
    expect(menu).toBeVisible();
    expect(menu).toHaveAccessibleName('Main');
    for (const name of ['Home', 'About', 'Contact', 'Research', 'Login', 'Sign Up']) {
      expect(within(menu).getByRole('link', { name })).toBeVisible();
    }
    expect(within(menu).getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('button', { name: 'Switch to dark mode' })).toBeVisible();
    expect(within(menu).queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Home' })).toHaveFocus();
    expect(document.body.style.overflow).toBe('hidden');
  });

  it('closes on Esc and gives focus back to the menu button', async () => {
    renderNav();
    const { button, menu } = await openMenu();
    await userEvent.keyboard('{Escape}');
    expect(menu).not.toBeVisible();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAccessibleName('Menu');
    expect(button).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });

  it('closes when its button is pressed again', async () => {
    renderNav();
    const { button, menu } = await openMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(menu).not.toBeVisible();
    expect(button).toHaveFocus();
  });

  it('keeps Tab inside the header while open', async () => {
    renderNav();
    const { menu } = await openMenu();
    const last = within(menu).getByRole('button', { name: 'Switch to dark mode' });
    last.focus();
    await userEvent.tab();
    const brand = screen.getByRole('link', { name: MESSAGES.app.companyName });
    expect(brand).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(last).toHaveFocus();
  });

  it('navigates and closes when a link is chosen', async () => {
    renderNav();
    const { button, menu } = await openMenu();
    await userEvent.click(within(menu).getByRole('link', { name: 'Contact' }));
    expect(screen.getByText('at /contact')).toBeInTheDocument();
    expect(menu).not.toBeVisible();
    expect(button).toHaveFocus();
  });

  it('closes on a click outside it', async () => {
    renderNav();
    const { menu } = await openMenu();
    await userEvent.click(screen.getByTestId('menu-backdrop'));
    expect(menu).not.toBeVisible();
    expect(screen.getByText('at /about')).toBeInTheDocument();
  });

  it('switches the theme from inside the menu', async () => {
    renderNav();
    const { menu } = await openMenu();
    await userEvent.click(within(menu).getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(within(menu).getByRole('button', { name: 'Switch to light mode' })).toHaveTextContent(
      'Light mode',
    );
    await userEvent.click(within(menu).getByRole('button', { name: 'Switch to light mode' }));
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('offers Profile and Logout to a member; Logout ends the session, closes the menu and goes home', async () => {
    localStorage.setItem('token', 'abc');
    renderNav('/about');
    const { button, menu } = await openMenu();
    expect(within(menu).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    await userEvent.click(within(menu).getByRole('button', { name: 'Logout' }));
    expect(localStorage.getItem('token')).toBeNull();
    expect(await screen.findByText('at /')).toBeInTheDocument();
    expect(menu).not.toBeVisible();
    expect(button).toHaveFocus();
  });
});

describe('active section', () => {
  it.each(['/research-center', '/research', '/post/42', '/post/42/edit', '/create-post'])(
    'Research is the current item on %s',
    (path) => {
      renderNav(path);
      const nav = screen.getByRole('navigation', { name: 'Main' });
      expect(within(nav).getByRole('link', { name: 'Research' })).toHaveAttribute('aria-current', 'page');
      expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    },
  );

  it('Research is not current elsewhere, and only one item is', () => {
    renderNav('/contact');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Research' })).not.toHaveAttribute('aria-current');
    expect(
      within(nav)
        .getAllByRole('link', { current: 'page' })
        .map((a) => a.textContent),
    ).toEqual(['Contact']);
  });
});

describe('theme toggle icon', () => {
  it('is an SVG icon, not a text glyph, named by what a press does', () => {
    renderNav();
    const toggle = screen.getByRole('button', { name: 'Switch to dark mode' });
    expect(toggle.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    expect(toggle).toHaveTextContent('');
  });
});

describe('not-found page', () => {
  it('names the tab', () => {
    render(
      <AppThemeProvider>
        <MemoryRouter>
          <NotFound />
        </MemoryRouter>
      </AppThemeProvider>,
    );
    expect(document.title).toBe(`${MESSAGES.app.notFoundTitle} | ${MESSAGES.app.companyName}`);
  });
});
