import { controlStyles, FieldFrame } from '@app/ui';
import type { InputHTMLAttributes, ReactNode } from 'react';

type Props = {
  label: ReactNode;
  name: string;
  error?: string | undefined;
  /** Ids of other elements that describe this field (e.g. the password requirements box). */
  describedBy?: string | undefined;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'aria-describedby'>;

/**
 * A labelled input whose error is tied to it through aria-describedby (via @app/ui's FieldFrame), plus any
 * extra description the screen names.
 */
export function InputField({ label, name, error, required, describedBy, ...input }: Props) {
  return (
    <FieldFrame label={label} error={error} required={required}>
      {({ id, describedBy: own, invalid }) => (
        <input
          id={id}
          name={name}
          css={controlStyles}
          aria-invalid={invalid || undefined}
          aria-describedby={[describedBy, own].filter(Boolean).join(' ') || undefined}
          aria-required={required || undefined}
          {...input}
        />
      )}
    </FieldFrame>
  );
}
