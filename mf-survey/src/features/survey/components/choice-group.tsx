import { Checkbox, type Option } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useId } from 'react';

/**
 * A group of checkboxes as one field: a fieldset named by its legend, with the group's error tied to every
 * box (aria-describedby), so the message is read wherever keyboard focus lands.
 */
export function ChoiceGroup({
  legend,
  hint,
  options,
  selected,
  onChange,
  error,
  required,
}: {
  legend: string;
  hint?: string;
  options: readonly Option[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
  error?: string | undefined;
  required?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const toggle = (value: string, checked: boolean) => {
    const chosen = new Set(selected);
    if (checked) chosen.add(value);
    else chosen.delete(value);
    // Keep the list's own order, whatever order the boxes were ticked in.
    onChange(options.filter((o) => chosen.has(o.value)).map((o) => o.value));
  };
  return (
    <fieldset
      aria-describedby={describedBy}
      css={(t: Theme) => css`
        border: 1px solid ${error ? t.color.danger : t.color.border};
        border-radius: ${t.radius.md};
        padding: ${t.space(3)} ${t.space(4)} ${t.space(4)};
        margin: 0 0 ${t.space(5)};
        min-width: 0;
      `}
    >
      <legend css={(t: Theme) => css`font-weight: 600; padding: 0 ${t.space(1)};`}>
        {legend}
        {required && (
          <span aria-hidden="true" css={(t: Theme) => css`color: ${t.color.danger};`}>
            {' '}
            *
          </span>
        )}
      </legend>
      {hint && (
        <p
          id={hintId}
          css={(t: Theme) =>
            css`margin: 0 0 ${t.space(2)}; color: ${t.color.textMuted}; font-size: ${t.font.small};`
          }
        >
          {hint}
        </p>
      )}
      {/* Above the boxes, not below: with a dozen boxes on a phone, the first one (which gets focus) and
          the message are then on screen together. */}
      {error && (
        <p
          id={errorId}
          role="alert"
          css={(t: Theme) =>
            css`margin: 0 0 ${t.space(2)}; color: ${t.color.danger}; font-size: ${t.font.small}; font-weight: 600;`
          }
        >
          {error}
        </p>
      )}
      <div
        css={(t: Theme) => css`
          display: grid;
          grid-template-columns: repeat(auto-fill, minmax(min(220px, 100%), 1fr));
          column-gap: ${t.space(4)};
        `}
      >
        {options.map((o) => (
          <Checkbox
            key={o.value}
            label={o.label}
            name={id}
            value={o.value}
            checked={selected.includes(o.value)}
            onChange={(e) => toggle(o.value, e.currentTarget.checked)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        ))}
      </div>
    </fieldset>
  );
}
