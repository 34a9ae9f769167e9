import { formatDate, type PostTeaser } from '@app/contracts';
import { Link } from '@app/router';
import { buttonStyles, Container, LockIcon, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { authorOf, titleOf } from '../../../lib/format';
import { LOCKED_GENERIC } from '../../../lib/lock-text';
import { actionsCss, emptyCss, LockedActions, LockNotice } from '../../research-center';
import { BackLink, PostHeader, PostSummary } from './post-header';

const panelCss = (t: Theme) => css`
  display: flex;
  flex-direction: column;
  gap: ${t.space(3)};
  align-items: flex-start;
  margin-top: ${t.space(6)};
  padding: ${t.space(5)};
  border: 1px solid ${t.color.border};
  border-left: 4px solid ${t.color.warning};
  border-radius: ${t.radius.md};
  background: ${t.color.surfaceAlt};
  h2 { margin: 0; font-size: ${t.font.h3}; }
`;

/** The teaser of a post above the visitor's tier: what it is about, never its content, and the way up. */
function TeaserPage({ teaser }: { teaser: PostTeaser }) {
  const title = titleOf(teaser);
  usePageTitle(`${title} (locked)`);
  return (
    <Container>
      <BackLink />
      <article css={css`max-width: 800px;`}>
        <PostHeader
          visibility={teaser.visibility}
          contentType={teaser.content_type}
          title={title}
          locked
          byline={
            <>
              <span>By {authorOf(teaser)}</span>
              <span>{formatDate(teaser.published_at)}</span>
            </>
          }
        />
        <PostSummary summary={teaser.summary} />
        <section aria-labelledby="locked-heading" css={panelCss}>
          <h2 id="locked-heading">Unlock this research</h2>
          <LockNotice visibility={teaser.visibility} />
          <LockedActions size="md" />
        </section>
      </article>
    </Container>
  );
}

/**
 * A post the caller may not open. With its teaser (the API's answer above the caller's tier): title, type,
 * summary and the way up. Without one (an older API's 403): a generic lock message and the same way up.
 */
export function LockedPostPage({ teaser }: { teaser?: PostTeaser }) {
  if (teaser) return <TeaserPage teaser={teaser} />;
  return <GenericLockedPage />;
}

function GenericLockedPage() {
  usePageTitle('Locked research');
  return (
    <Container>
      <div css={emptyCss}>
        <h1>
          <LockIcon size={28} css={css`vertical-align: -3px; margin-right: 10px;`} />
          Locked research
        </h1>
        <p>{LOCKED_GENERIC}</p>
        <LockedActions size="md" />
        <div css={actionsCss}>
          <Link to="/research-center" css={buttonStyles('ghost')}>
            Back to Research Center
          </Link>
        </div>
      </div>
    </Container>
  );
}

/** A missing post, or a draft or admin-only post the API will not disclose (404). */
export function MissingPostPage() {
  usePageTitle('Research not found');
  return (
    <Container>
      <div css={emptyCss}>
        <h1>Research not found</h1>
        <p>This research does not exist, was deleted, or is not available to you.</p>
        <div css={actionsCss}>
          <Link to="/research-center" css={buttonStyles('primary')}>
            Back to Research Center
          </Link>
        </div>
      </div>
    </Container>
  );
}
