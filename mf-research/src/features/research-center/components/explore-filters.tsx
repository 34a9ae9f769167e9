import { CONTENT_TYPES, type ContentType } from '@app/contracts';
import { useServerState } from '@app/server-state';
import { Button, SelectField, TextField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useState } from 'react';
import { type ExploreFilters, fetchTerms, hasFilters, NO_FILTERS, peekTerms } from '../api/research-api';

const TYPE_OPTIONS = CONTENT_TYPES.values.map((value) => ({ value, label: CONTENT_TYPES.labels[value] }));

/** A term list with its counts, from the answer primed into the page when there is one. */
const useTerms = (kind: 'tags' | 'categories') =>
  useServerState(
    (signal) => fetchTerms(kind, signal),
    [],
    true,
    () => peekTerms(kind),
  );

/** Search text applies on submit; the three selects apply at once. Tag and category lists come from the API. */
export function ExploreFiltersBar({
  filters,
  onChange,
}: {
  filters: ExploreFilters;
  onChange: (next: ExploreFilters) => void;
}) {
  const [text, setText] = useState(filters.q);
  // The term lists are a convenience: if they fail, the selects just offer 'All'.
  const tags = useTerms('tags');
  const categories = useTerms('categories');
  const toOptions = (list: { name: string; count: number }[] | null) =>
    (list ?? []).map((term) => ({ value: term.name, label: `${term.name} (${term.count})` }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...filters, q: text.trim() });
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is unknown to jsdom (tests) and older browsers; the role is equivalent.
    <form
      role="search"
      aria-label="Search and filter research"
      onSubmit={submit}
      css={(t: Theme) => css`
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(180px, 100%), 1fr));
        gap: 0 ${t.space(4)};
        align-items: end;
        margin-bottom: ${t.space(4)};
        & > div { margin-bottom: ${t.space(3)}; }
      `}
    >
      <div
        css={css`grid-column: 1 / -1; display: flex; gap: 8px; align-items: flex-end; & > div:first-of-type { flex: 1; margin-bottom: 0; }`}
      >
        <TextField
          label="Search research"
          type="search"
          name="q"
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit">Search</Button>
      </div>
      <SelectField
        label="Content type"
        value={filters.contentType}
        placeholder="All types"
        options={TYPE_OPTIONS}
        onChange={(e) => onChange({ ...filters, contentType: e.target.value as ContentType | '' })}
      />
      <SelectField
        label="Tag"
        value={filters.tag}
        placeholder="All tags"
        options={withCurrent(toOptions(tags.data), filters.tag)}
        onChange={(e) => onChange({ ...filters, tag: e.target.value })}
      />
      <SelectField
        label="Category"
        value={filters.category}
        placeholder="All categories"
        options={withCurrent(toOptions(categories.data), filters.category)}
        onChange={(e) => onChange({ ...filters, category: e.target.value })}
      />
      {hasFilters(filters) && (
        <div>
          <Button
            variant="secondary"
            onClick={() => {
              setText('');
              onChange(NO_FILTERS);
            }}
          >
            Clear filters
          </Button>
        </div>
      )}
    </form>
  );
}

/** Keep the chosen value selectable even if the term list has not arrived (or no longer lists it). */
function withCurrent(options: { value: string; label: string }[], current: string) {
  if (!current || options.some((o) => o.value === current)) return options;
  return [{ value: current, label: current }, ...options];
}
