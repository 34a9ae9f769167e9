import { INTELLIGENCE_TOPICS, REPORT_FREQUENCIES, URGENCIES } from '@app/contracts';
import { SelectField } from '@app/ui';
import { ChoiceGroup } from './choice-group';
import { optionsOf } from './options';
import type { StepProps } from './step-props';

/** Step 3 (SPEC §2): intelligence topics, report frequency, urgency. */
export function StepInterests({ values, errors, setField }: StepProps) {
  return (
    <>
      <ChoiceGroup
        legend="Intelligence topics"
        hint="Select all topics you want insights on."
        required
        options={optionsOf(INTELLIGENCE_TOPICS)}
        selected={values.intelligenceTopics}
        onChange={(next) => setField('intelligenceTopics', next)}
        error={errors.intelligenceTopics}
      />
      <SelectField
        label="Report frequency"
        hint="Optional"
        placeholder="Select a frequency"
        options={optionsOf(REPORT_FREQUENCIES)}
        value={values.reportFrequency}
        onChange={(e) => setField('reportFrequency', e.currentTarget.value)}
        error={errors.reportFrequency}
      />
      <SelectField
        label="Urgency"
        hint="Optional. How soon do you need these insights?"
        placeholder="Select urgency"
        options={optionsOf(URGENCIES)}
        value={values.urgency}
        onChange={(e) => setField('urgency', e.currentTarget.value)}
        error={errors.urgency}
      />
    </>
  );
}
