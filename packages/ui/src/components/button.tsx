import { css, type Theme } from '@emotion/react';
import type { ButtonHTMLAttributes, Ref } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

/** Shared with links styled as buttons (react-router <Link css={buttonStyles('primary')}>). */
export const buttonStyles =
  (variant: ButtonVariant = 'primary', size: 'sm' | 'md' = 'md') =>
  (t: Theme) =>
    css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${t.space(2)};
  min-height: ${size === 'sm' ? '32px' : '40px'};
  padding: 0 ${size === 'sm' ? t.space(3) : t.space(4)};
  border-radius: ${t.radius.sm};
  border: 1px solid transparent;
  font: inherit;
  font-size: ${size === 'sm' ? t.font.small : t.font.body};
  font-weight: 600;
  text-decoration: none;
  cursor: pointer;
  transition: background-color 0.15s, border-color 0.15s;
  &:disabled, &[aria-disabled='true'] {
    opacity: 0.6;
    cursor: not-allowed;
  }
  ${
    variant === 'primary' &&
    css`
    background: ${t.color.primary};
    color: ${t.color.primaryText};
    &:hover:not(:disabled) { background: ${t.color.primaryHover}; }
  `
  }
  ${
    variant === 'secondary' &&
    css`
    background: ${t.color.surface};
    color: ${t.color.text};
    border-color: ${t.color.border};
    &:hover:not(:disabled) { border-color: ${t.color.primary}; }
  `
  }
  ${
    variant === 'ghost' &&
    css`
    background: transparent;
    color: ${t.color.primary};
    &:hover:not(:disabled) { background: ${t.color.surfaceAlt}; }
  `
  }
  ${
    variant === 'danger' &&
    css`
    background: ${t.color.danger};
    color: ${t.color.surface};
    &:hover:not(:disabled) { filter: brightness(0.95); }
  `
  }
`;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  /** React 19 passes ref as a prop; it reaches the <button> through the spread below. */
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant = 'primary', size = 'md', type = 'button', ...rest }: ButtonProps) {
  return <button type={type} css={buttonStyles(variant, size)} {...rest} />;
}
