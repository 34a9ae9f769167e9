import { MESSAGES } from '@app/contracts';
import { COMPLETE_VALUES } from '../../../test/fixtures';
import { EMPTY_VALUES, firstInvalidStep, STEP_FIELDS, toPayload, validateStep } from './survey-values';

const S = MESSAGES.survey;

describe('validateStep (SPEC §5)', () => {
  it('step 1: company size, industry and role are required; years in role is optional', () => {
    expect(validateStep(0, EMPTY_VALUES)).toEqual({
      companySize: S.companySizeRequired,
      industry: S.industryRequired,
      role: S.roleRequired,
    });
    expect(validateStep(0, COMPLETE_VALUES)).toEqual({});
  });

  it('step 1 rejects a value outside the option list with the field message', () => {
    expect(validateStep(0, { ...COMPLETE_VALUES, industry: 'mining' })).toEqual({
      industry: S.industryRequired,
    });
  });

  it('step 2: at least one challenge; risks and goals are optional', () => {
    expect(validateStep(1, EMPTY_VALUES)).toEqual({ primaryChallenges: S.challengeRequired });
    expect(validateStep(1, { ...EMPTY_VALUES, primaryChallenges: ['cash-flow'] })).toEqual({});
  });

  it('step 3: at least one topic; frequency and urgency are optional', () => {
    expect(validateStep(2, EMPTY_VALUES)).toEqual({ intelligenceTopics: S.topicRequired });
    expect(validateStep(2, { ...EMPTY_VALUES, intelligenceTopics: ['cyber-threats'] })).toEqual({});
  });

  it('step 4: email required, then a simple address shape; the rest is optional', () => {
    expect(validateStep(3, EMPTY_VALUES)).toEqual({ email: S.emailRequired });
    expect(validateStep(3, { ...EMPTY_VALUES, email: '   ' })).toEqual({ email: S.emailRequired });
    for (const email of ['plainaddress', 'a@b', 'with space@example.com', '@example.com']) {
      expect(validateStep(3, { ...EMPTY_VALUES, email })).toEqual({ email: S.emailInvalid });
    }
    expect(validateStep(3, { ...EMPTY_VALUES, email: 'ceo@firm.de' })).toEqual({});
  });

  it('knows which fields each step holds', () => {
    expect(STEP_FIELDS.map((f) => f.length)).toEqual([4, 3, 3, 7]);
  });
});

describe('firstInvalidStep and toPayload', () => {
  it('finds the first step that fails', () => {
    expect(firstInvalidStep(EMPTY_VALUES)).toBe(0);
    expect(firstInvalidStep({ ...COMPLETE_VALUES, intelligenceTopics: [] })).toBe(2);
    expect(firstInvalidStep(COMPLETE_VALUES)).toBe(-1);
  });

  it('builds the §3 payload with every field, trimmed', () => {
    const payload = toPayload({ ...COMPLETE_VALUES, email: '  coo@example.com ', company: ' ACME ' });
    expect(payload).toEqual({
      companySize: '51-200',
      industry: 'logistics',
      role: 'coo',
      yearsInRole: '',
      primaryChallenges: ['supply-chain'],
      riskConcerns: [],
      growthGoals: [],
      intelligenceTopics: ['market-trends'],
      reportFrequency: '',
      urgency: '',
      email: 'coo@example.com',
      firstName: '',
      lastName: '',
      company: 'ACME',
      phone: '',
      communicationMethod: '',
      consultationInterest: false,
    });
  });
});
