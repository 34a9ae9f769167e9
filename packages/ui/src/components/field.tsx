import { css, type Theme } from '@emotion/react';
import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

const wrap = (t: Theme) => css`
  display: flex;
  flex-direction: column;
  gap: ${t.space(1)};
  margin-bottom: ${t.space(4)};
`;
const labelCss = (t: Theme) => css`
  font-weight: 600;
  font-size: ${t.font.small};
`;
export const controlStyles = (t: Theme) => css`
  width: 100%;
  min-height: 40px;
  padding: ${t.space(2)} ${t.space(3)};
  border: 1px solid ${t.color.border};
  border-radius: ${t.radius.sm};
  background: ${t.color.surface};
  color: ${t.color.text};
  font: inherit;
  &[aria-invalid='true'] { border-color: ${t.color.danger}; }
  &:disabled, &[readonly] { background: ${t.color.surfaceAlt}; }
`;
const errorCss = (t: Theme) => css`
  color: ${t.color.danger};
  font-size: ${t.font.small};
  margin: 0;
`;
const hintCss = (t: Theme) => css`
  color: ${t.color.textMuted};
  font-size: ${t.font.small};
  margin: 0;
`;

interface FieldFrameProps {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label, control, hint and error tied together: the error is announced through aria-describedby. */
export function FieldFrame({ label, error, hint, required, children }: FieldFrameProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div css={wrap}>
      <label htmlFor={id} css={labelCss}>
        {label}
        {required && (
          <span aria-hidden="true" css={(t: Theme) => css`color: ${t.color.danger};`}>
            {' '}
            *
          </span>
        )}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && (
        <p id={hintId} css={hintCss}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} css={errorCss} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

type Common = { label: ReactNode; error?: string | undefined; hint?: ReactNode };

export function TextField({
  label,
  error,
  hint,
  required,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame label={label} error={error} hint={hint} required={required}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          css={controlStyles}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          aria-required={required || undefined}
          {...input}
        />
      )}
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  required,
  ...input
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame label={label} error={error} hint={hint} required={required}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          css={(t: Theme) => css`${controlStyles(t)}; min-height: 120px; resize: vertical;`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          aria-required={required || undefined}
          {...input}
        />
      )}
    </FieldFrame>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  label,
  error,
  hint,
  required,
  options,
  placeholder,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly Option[]; placeholder?: string }) {
  return (
    <FieldFrame label={label} error={error} hint={hint} required={required}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          css={controlStyles}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          aria-required={required || undefined}
          {...select}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/**
 * A checkbox whose box keeps its 16 px when the label wraps: the box never shrinks, and the label takes the
 * rest of the row and wraps beside it (a flex item's default `flex-shrink: 1` squeezed the box before).
 */
export function Checkbox({ label, ...input }: { label: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label
      css={(t: Theme) => css`
        display: flex;
        gap: ${t.space(2)};
        align-items: flex-start;
        cursor: pointer;
        padding: ${t.space(1)} 0;
        & > input { flex: 0 0 16px; margin: 4px 0 0; width: 16px; height: 16px; }
        & > span { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
      `}
    >
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </label>
  );
}
