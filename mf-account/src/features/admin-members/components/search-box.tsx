import { controlStyles, FieldFrame } from '@app/ui';
import { css } from '@emotion/react';
import { useDebouncedSearch } from '../hooks/use-debounced-search';
import { MEMBERS_TEXTS as T } from '../texts';

/** Name, email or username; asks once typing pauses, or at once on Enter. */
export function SearchBox({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const { text, setText, commitNow } = useDebouncedSearch(q, onSearch);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is unknown to jsdom (tests) and older browsers; the role is equivalent.
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        commitNow();
      }}
      css={css`flex: 1 1 280px; max-width: 420px;`}
    >
      <FieldFrame label={T.search} hint={T.searchHint}>
        {({ id, describedBy }) => (
          <input
            id={id}
            type="search"
            name="q"
            autoComplete="off"
            maxLength={100}
            css={controlStyles}
            aria-describedby={describedBy}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </FieldFrame>
    </form>
  );
}
