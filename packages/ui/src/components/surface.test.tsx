import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppThemeProvider } from '../theme';
import { Alert, Badge, Card, Skeleton, VisuallyHidden } from './surface';

const inTheme = (ui: React.ReactNode) => render(<AppThemeProvider>{ui}</AppThemeProvider>);

describe('surfaces', () => {
  it('announces an error at once and other alerts politely', () => {
    inTheme(
      <>
        <Alert tone="error">Could not save</Alert>
        <Alert tone="success">Saved</Alert>
        <Alert>Heads up</Alert>
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save');
    expect(screen.getAllByRole('status').map((el) => el.textContent)).toEqual(['Saved', 'Heads up']);
  });

  it('a card is an article with what it holds; a badge shows its text', () => {
    inTheme(
      <Card aria-label="Post">
        <h3>Title</h3>
        <Badge tone="warning">Premium</Badge>
      </Card>,
    );
    const card = screen.getByRole('article', { name: 'Post' });
    expect(card).toHaveTextContent('Title');
    expect(card).toHaveTextContent('Premium');
  });

  it('a skeleton is invisible to assistive technology and keeps the size it is given', () => {
    const { container } = inTheme(<Skeleton width="12rem" height="2rem" />);
    const skeleton = container.querySelector('span')!;
    expect(skeleton).toHaveAttribute('aria-hidden', 'true');
    expect(getComputedStyle(skeleton).width).toBe('12rem');
    expect(getComputedStyle(skeleton).height).toBe('2rem');
  });

  it('visually hidden text is still read out', () => {
    inTheme(
      <button type="button">
        <span aria-hidden="true">×</span>
        <VisuallyHidden>Close</VisuallyHidden>
      </button>,
    );
    const button = screen.getByRole('button', { name: 'Close' });
    const hidden = screen.getByText('Close');
    expect(button).toContainElement(hidden);
    expect(getComputedStyle(hidden).position).toBe('absolute');
    expect(getComputedStyle(hidden).width).toBe('1px');
  });
});
