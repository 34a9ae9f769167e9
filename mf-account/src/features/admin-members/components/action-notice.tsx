import { Alert } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import type { Ref } from 'react';
import type { Notice } from '../hooks/use-member-actions';
import { MEMBERS_TEXTS as T } from '../texts';

/**
 * What the last action did: "Activated 3 members", the ids the API skipped with its reason, or its error.
 * Focusable (not in the tab order) so focus can land here when the rows acted on are gone.
 */
export function ActionNotice({ notice, ref }: { notice: Notice | null; ref: Ref<HTMLDivElement> }) {
  return (
    <div ref={ref} tabIndex={-1} css={css`&:focus { outline: none; }`}>
      {notice && (
        <Alert tone={notice.tone}>
          <strong>{notice.text}</strong>
          {notice.skipped.length > 0 && (
            <>
              {' '}
              {T.skipped(notice.skipped.length)}
              <ul css={(t: Theme) => css`margin: ${t.space(1)} 0 0; padding-left: ${t.space(5)};`}>
                {notice.skipped.map((s) => (
                  <li key={s.id}>
                    {s.label}: {s.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Alert>
      )}
    </div>
  );
}
