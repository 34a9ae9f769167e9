import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LockIcon, SunIcon } from './icons';

describe('icons', () => {
  it('are SVG, hidden from assistive technology when decorative', () => {
    const { container } = render(<LockIcon />);
    const svg = container.querySelector('svg');
    expect(svg).not.toBeNull();
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
  });

  it('are announced with the name they are given when they stand alone', () => {
    render(<SunIcon role="img" aria-label="Light theme" />);
    expect(screen.getByRole('img', { name: 'Light theme' })).toBeInTheDocument();
  });
});
