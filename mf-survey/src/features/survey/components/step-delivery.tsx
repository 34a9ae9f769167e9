import { COMMUNICATION_METHODS } from '@app/contracts';
import { Checkbox, SelectField, TextField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import type { ChangeEvent } from 'react';
import { optionsOf } from './options';
import type { StepProps } from './step-props';

const pair = (t: Theme) => css`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(220px, 100%), 1fr));
  column-gap: ${t.space(4)};
`;

/** Step 4 (SPEC §2): where the insights go. Only the email is required (SPEC §5). */
export function StepDelivery({ values, errors, setField }: StepProps) {
  const text = (field: 'email' | 'firstName' | 'lastName' | 'company' | 'phone') => ({
    value: values[field],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setField(field, e.currentTarget.value),
    error: errors[field],
  });
  return (
    <>
      <TextField
        label="Email"
        required
        type="email"
        autoComplete="email"
        maxLength={254}
        {...text('email')}
      />
      <div css={pair}>
        <TextField
          label="First name"
          hint="Optional"
          autoComplete="given-name"
          maxLength={100}
          {...text('firstName')}
        />
        <TextField
          label="Last name"
          hint="Optional"
          autoComplete="family-name"
          maxLength={100}
          {...text('lastName')}
        />
      </div>
      <div css={pair}>
        <TextField
          label="Company"
          hint="Optional"
          autoComplete="organization"
          maxLength={200}
          {...text('company')}
        />
        <TextField
          label="Phone"
          hint="Optional"
          type="tel"
          autoComplete="tel"
          maxLength={50}
          {...text('phone')}
        />
      </div>
      <SelectField
        label="Preferred communication"
        hint="Optional. How should we deliver your insights?"
        placeholder="Select a method"
        options={optionsOf(COMMUNICATION_METHODS)}
        value={values.communicationMethod}
        onChange={(e) => setField('communicationMethod', e.currentTarget.value)}
        error={errors.communicationMethod}
      />
      <Checkbox
        label="I am interested in a free consultation with an analyst"
        checked={values.consultationInterest}
        onChange={(e) => setField('consultationInterest', e.currentTarget.checked)}
      />
    </>
  );
}
