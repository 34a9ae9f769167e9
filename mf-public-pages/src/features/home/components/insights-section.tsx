import { CONTENT_TYPES, formatDate, MESSAGES, type PostCard } from '@app/contracts';
import { Link } from '@app/router';
import { Badge, Card, gridStyles, Skeleton } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { HOME_ARTICLE_LIMIT } from '../api/load-home';
import { CardOutline, HomeSection } from './home-section';
import { postExcerpt } from './post-excerpt';

/** Real cards and skeletons share one height, so arriving articles do not push the page down. */
const CARD_HEIGHT = '236px';

const clamp = (lines: number) => css`
  display: -webkit-box;
  -webkit-line-clamp: ${lines};
  -webkit-box-orient: vertical;
  overflow: hidden;
`;

function ArticleCard({ post }: { post: PostCard }) {
  const date = formatDate(post.published_at ?? post.created_at);
  return (
    <Card css={css`min-height: ${CARD_HEIGHT};`}>
      <div css={css`display: flex; justify-content: space-between; gap: 8px; align-items: center;`}>
        <Badge tone="info">{CONTENT_TYPES.labels[post.content_type]}</Badge>
        {/* SPEC §9: always a date, or 'No date' / 'Invalid date' (it used to be left out instead). */}
        <time
          dateTime={post.published_at ?? post.created_at}
          css={(t: Theme) => css`font-size: ${t.font.small}; color: ${t.color.textMuted};`}
        >
          {date}
        </time>
      </div>
      <h3 css={(t: Theme) => css`margin: ${t.space(1)} 0 0; font-size: 1.15rem; ${clamp(3)}`}>
        <Link
          to={`/post/${post.id}`}
          title={post.title}
          css={(t: Theme) => css`
            color: ${t.color.text};
            text-decoration: none;
            &:hover { color: ${t.color.primary}; text-decoration: underline; }
          `}
        >
          {post.title || MESSAGES.research.untitled}
        </Link>
      </h3>
      <p css={(t: Theme) => css`margin: 0; color: ${t.color.textMuted}; ${clamp(3)}`}>{postExcerpt(post)}</p>
    </Card>
  );
}

function SkeletonCard() {
  return (
    <CardOutline height={CARD_HEIGHT}>
      <Skeleton width="110px" height="20px" radius="999px" />
      <Skeleton height="24px" />
      <Skeleton width="70%" height="24px" />
      <Skeleton height="16px" />
      <Skeleton height="16px" />
      <Skeleton width="50%" height="16px" />
    </CardOutline>
  );
}

export function InsightsSection({ posts, loading }: { posts: readonly PostCard[]; loading: boolean }) {
  return (
    <HomeSection
      id="insights"
      title="Latest Insights"
      intro="The latest public research from our analysts and members: open any article to read it in full."
      busy={loading}
    >
      {loading ? (
        <div css={gridStyles('300px')}>
          {Array.from({ length: HOME_ARTICLE_LIMIT }, (_, i) => (
            <SkeletonCard key={i} />
          ))}
        </div>
      ) : posts.length === 0 ? (
        <p
          css={(t: Theme) => css`
            margin: 0;
            padding: ${t.space(8)} ${t.space(4)};
            text-align: center;
            border: 1px dashed ${t.color.border};
            border-radius: ${t.radius.md};
            color: ${t.color.textMuted};
          `}
        >
          {MESSAGES.home.noInsights}
        </p>
      ) : (
        <ul css={(t: Theme) => css`${gridStyles('300px')(t)}; list-style: none; margin: 0; padding: 0;`}>
          {posts.map((post) => (
            <li key={post.id} css={css`display: grid;`}>
              <ArticleCard post={post} />
            </li>
          ))}
        </ul>
      )}
    </HomeSection>
  );
}
