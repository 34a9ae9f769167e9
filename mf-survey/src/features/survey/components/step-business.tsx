import { BUSINESS_ROLES, COMPANY_SIZES, INDUSTRIES, YEARS_IN_ROLE } from '@app/contracts';
import { SelectField } from '@app/ui';
import { optionsOf } from './options';
import type { StepProps } from './step-props';

/** Step 1 (SPEC §2): company size, industry, role, years in role. */
export function StepBusiness({ values, errors, setField }: StepProps) {
  return (
    <>
      <SelectField
        label="Company size"
        required
        placeholder="Select company size"
        options={optionsOf(COMPANY_SIZES)}
        value={values.companySize}
        onChange={(e) => setField('companySize', e.currentTarget.value)}
        error={errors.companySize}
      />
      <SelectField
        label="Industry"
        required
        placeholder="Select your industry"
        options={optionsOf(INDUSTRIES)}
        value={values.industry}
        onChange={(e) => setField('industry', e.currentTarget.value)}
        error={errors.industry}
      />
      <SelectField
        label="Your role"
        required
        placeholder="Select your role"
        options={optionsOf(BUSINESS_ROLES)}
        value={values.role}
        onChange={(e) => setField('role', e.currentTarget.value)}
        error={errors.role}
      />
      <SelectField
        label="Years in role"
        hint="Optional"
        placeholder="Select years in role"
        options={optionsOf(YEARS_IN_ROLE)}
        value={values.yearsInRole}
        onChange={(e) => setField('yearsInRole', e.currentTarget.value)}
        error={errors.yearsInRole}
      />
    </>
  );
}
