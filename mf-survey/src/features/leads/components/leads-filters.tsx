import { COMPANY_SIZES, INDUSTRIES, URGENCIES } from '@app/contracts';
import type { LeadFilters } from '@app/contracts/leads';
import { Button, type Option, SelectField, TextField, visuallyHiddenStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { hasFilters } from '../model/lead-query';
import { LEAD_FIELDS as F, LEADS_TEXTS as T } from '../model/texts';

const options = <K extends string>(list: { values: readonly K[]; labels: Record<K, string> }): Option[] =>
  list.values.map((value) => ({ value, label: list.labels[value] }));
const YES_NO: Option[] = [
  { value: 'yes', label: T.yes },
  { value: 'no', label: T.no },
];

interface LeadsFiltersProps {
  filters: LeadFilters;
  onChange: <K extends keyof LeadFilters>(key: K, value: LeadFilters[K]) => void;
  onClear: () => void;
}

/** Each control applies at once (no Apply button): the table and the export follow the address. */
export function LeadsFilters({ filters, onChange, onClear }: LeadsFiltersProps) {
  // The values come from these same lists (or ''), so the casts only restate what the select can hold.
  const select = <K extends keyof LeadFilters>(key: K, label: string, list: Option[]) => (
    <SelectField
      label={label}
      options={list}
      placeholder={T.any}
      value={filters[key]}
      onChange={(e) => onChange(key, e.target.value as LeadFilters[K])}
    />
  );
  const day = (key: 'from' | 'to', label: string) => (
    <TextField
      type="date"
      label={label}
      value={filters[key]}
      onChange={(e) => onChange(key, e.target.value)}
    />
  );
  return (
    <fieldset
      css={(t: Theme) => css`
        min-width: 0;
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(170px, 1fr));
        column-gap: ${t.space(4)};
        align-items: start;
        padding: ${t.space(4)} ${t.space(4)} 0;
        margin: 0 0 ${t.space(4)};
        background: ${t.color.surface};
        border: 1px solid ${t.color.border};
        border-radius: ${t.radius.md};
      `}
    >
      <legend css={visuallyHiddenStyles}>{T.filtersLegend}</legend>
      {select('consultation', F.consultation, YES_NO)}
      {select('contacted', F.contacted, YES_NO)}
      {select('urgency', F.urgency, options(URGENCIES))}
      {select('industry', F.industry, options(INDUSTRIES))}
      {select('companySize', F.companySize, options(COMPANY_SIZES))}
      {day('from', F.receivedFrom)}
      {day('to', F.receivedTo)}
      <div css={(t: Theme) => css`align-self: end; margin-bottom: ${t.space(4)};`}>
        <Button variant="secondary" onClick={onClear} disabled={!hasFilters(filters)}>
          {T.clearFilters}
        </Button>
      </div>
    </fieldset>
  );
}
