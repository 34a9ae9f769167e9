import {
  BUSINESS_ROLES,
  CHALLENGES,
  COMMUNICATION_METHODS,
  COMPANY_SIZES,
  GROWTH_GOALS,
  INDUSTRIES,
  INTELLIGENCE_TOPICS,
  REPORT_FREQUENCIES,
  RISK_CONCERNS,
  URGENCIES,
  YEARS_IN_ROLE,
} from '@app/contracts';
import * as v from 'valibot';
import { EMPTY_VALUES, STEP_COUNT, type SurveyValues } from './survey-values';

/**
 * The survey draft lives in sessionStorage: it survives closing the modal (the shell unmounts this remote)
 * and a reload, and ends with the tab. The Idempotency-Key belongs to the draft, so a repeated submit of
 * the same draft (after a lost answer, say) is stored once; a new draft after success gets a new key.
 */
export const DRAFT_STORAGE_KEY = 'market-assessment-draft';

export interface SurveyDraft {
  step: number;
  values: SurveyValues;
  idempotencyKey: string;
}

/** crypto.randomUUID exists only in secure contexts; getRandomValues works everywhere. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// A stored draft is input like any other: unknown options are dropped, broken fields fall back to empty.
const pick = (values: readonly string[]) =>
  v.fallback(
    v.pipe(
      v.string(),
      v.check((s) => s === '' || values.includes(s)),
    ),
    '',
  );
const text = v.fallback(v.pipe(v.string(), v.maxLength(300)), '');
const list = (values: readonly string[]) =>
  v.fallback(
    v.pipe(
      v.array(v.string()),
      v.filterItems((s) => values.includes(s)),
    ),
    [],
  );

const StoredDraftSchema = v.object({
  step: v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(STEP_COUNT - 1)), 0),
  idempotencyKey: v.pipe(v.string(), v.minLength(8), v.maxLength(200)),
  values: v.object({
    companySize: pick(COMPANY_SIZES.values),
    industry: pick(INDUSTRIES.values),
    role: pick(BUSINESS_ROLES.values),
    yearsInRole: pick(YEARS_IN_ROLE.values),
    primaryChallenges: list(CHALLENGES.values),
    riskConcerns: list(RISK_CONCERNS.values),
    growthGoals: list(GROWTH_GOALS.values),
    intelligenceTopics: list(INTELLIGENCE_TOPICS.values),
    reportFrequency: pick(REPORT_FREQUENCIES.values),
    urgency: pick(URGENCIES.values),
    email: text,
    firstName: text,
    lastName: text,
    company: text,
    phone: text,
    communicationMethod: pick(COMMUNICATION_METHODS.values),
    consultationInterest: v.fallback(v.boolean(), false),
  }),
});

export function newDraft(): SurveyDraft {
  return { step: 0, values: { ...EMPTY_VALUES }, idempotencyKey: newIdempotencyKey() };
}

/** The stored draft, or a fresh one when there is none or it cannot be read. */
export function loadDraft(): SurveyDraft {
  try {
    const raw = window.sessionStorage.getItem(DRAFT_STORAGE_KEY);
    if (!raw) return newDraft();
    const parsed = v.safeParse(StoredDraftSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : newDraft();
  } catch {
    return newDraft();
  }
}

export function saveDraft(draft: SurveyDraft): void {
  try {
    window.sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Storage may be full or disabled; the survey still works, the draft just lasts as long as the modal.
  }
}

export function clearDraft(): void {
  try {
    window.sessionStorage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
