import { CHALLENGES, GROWTH_GOALS, RISK_CONCERNS } from '@app/contracts';
import { ChoiceGroup } from './choice-group';
import { optionsOf } from './options';
import type { StepProps } from './step-props';

/** Step 2 (SPEC §2): challenges, risk concerns, growth goals. */
export function StepChallenges({ values, errors, setField }: StepProps) {
  return (
    <>
      <ChoiceGroup
        legend="Primary challenges"
        hint="Select all that apply."
        required
        options={optionsOf(CHALLENGES)}
        selected={values.primaryChallenges}
        onChange={(next) => setField('primaryChallenges', next)}
        error={errors.primaryChallenges}
      />
      <ChoiceGroup
        legend="Risk concerns"
        hint="Optional. Which risks worry you most?"
        options={optionsOf(RISK_CONCERNS)}
        selected={values.riskConcerns}
        onChange={(next) => setField('riskConcerns', next)}
        error={errors.riskConcerns}
      />
      <ChoiceGroup
        legend="Growth goals"
        hint="Optional. Where do you want to grow in the next two years?"
        options={optionsOf(GROWTH_GOALS)}
        selected={values.growthGoals}
        onChange={(next) => setField('growthGoals', next)}
        error={errors.growthGoals}
      />
    </>
  );
}
