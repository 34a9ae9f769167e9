import * as v from 'valibot';
import { ContentTypeSchema, PostStatusSchema, VisibilitySchema } from './enums';
import { NullableString } from './schema-parts';

// Research posts as the API sends them (whole, as a card, or as a locked teaser) and as an author writes them.

export const AuthorSchema = v.object({ id: v.optional(v.nullable(v.number())), name: NullableString });

export const PostSchema = v.object({
  id: v.number(),
  _id: v.string(),
  title: v.string(),
  summary: v.string(),
  content: v.string(),
  excerpt: NullableString,
  status: PostStatusSchema,
  visibility: VisibilitySchema,
  content_type: ContentTypeSchema,
  published_at: NullableString,
  created_at: v.string(),
  updated_at: v.optional(v.string()),
  views: v.number(),
  likes: v.optional(v.number(), 0),
  liked: v.optional(v.boolean(), false),
  comment_count: v.optional(v.number(), 0),
  author: AuthorSchema,
  slug: v.string(),
  tags: v.array(v.string()),
  categories: v.array(v.string()),
});
export type Post = v.InferOutput<typeof PostSchema>;
export const PostListSchema = v.array(PostSchema);

/**
 * A published post above the caller's tier, as the API sends it instead of the post: enough to sell it
 * (title, type, summary, the tier that opens it), never its content or excerpt (the excerpt is cut from the
 * content). Private posts and drafts are never teased. `required_tier` is the lowest tier that opens it.
 */
export const PostTeaserSchema = v.object({
  id: v.number(),
  _id: v.string(),
  slug: v.string(),
  title: v.string(),
  summary: v.string(),
  status: v.literal('published'),
  visibility: v.picklist(['members_only', 'paid-tier-1', 'paid-tier-2']),
  content_type: ContentTypeSchema,
  published_at: NullableString,
  created_at: v.string(),
  author: AuthorSchema,
  locked: v.literal(true),
  required_tier: v.picklist(['basic', 'premium', 'premium_pro']),
});
export type PostTeaser = v.InferOutput<typeof PostTeaserSchema>;
/** What a list asked with `teasers=1` or a single read returns: the post, or its teaser when locked. */
export const PostOrTeaserSchema = v.union([PostTeaserSchema, PostSchema]);
export type PostOrTeaser = Post | PostTeaser;
export const PostOrTeaserListSchema = v.array(PostOrTeaserSchema);
export const isTeaser = (post: PostCard | PostTeaser): post is PostTeaser => 'locked' in post && post.locked;

/**
 * What a list (/api/posts, /my, /search) shows on a card: the post without its content. The card's text is
 * the plain-text `excerpt` (at most 120 characters) the server computes when the post is written.
 */
export const PostCardSchema = v.omit(PostSchema, ['content']);
export type PostCard = v.InferOutput<typeof PostCardSchema>;
export const PostCardListSchema = v.array(PostCardSchema);
export const PostCardOrTeaserListSchema = v.array(v.union([PostTeaserSchema, PostCardSchema]));
export type PostCardOrTeaser = PostCard | PostTeaser;
/** Lists answer one page; this header carries the cursor of the next (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

const TagSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('Tags cannot be empty'),
  v.maxLength(40, 'Tags are at most 40 characters'),
);

/** What an author sends to create or update a post. */
export const PostInputSchema = v.object({
  title: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Title is required'),
    v.maxLength(200, 'Title must be at most 200 characters'),
  ),
  summary: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(500, 'Summary must be at most 500 characters')),
    '',
  ),
  content: v.pipe(
    v.string(),
    v.nonEmpty('Content is required'),
    v.maxLength(100_000, 'Content must be at most 100,000 characters'),
  ),
  content_type: v.optional(ContentTypeSchema, 'research_report'),
  visibility: v.optional(VisibilitySchema, 'public'),
  status: v.optional(PostStatusSchema, 'draft'),
  tags: v.optional(v.pipe(v.array(TagSchema), v.maxLength(10, 'At most 10 tags')), []),
  categories: v.optional(v.pipe(v.array(TagSchema), v.maxLength(10, 'At most 10 categories')), []),
});
export type PostInput = v.InferInput<typeof PostInputSchema>;
export const PostUpdateSchema = v.partial(PostInputSchema);
export type PostUpdate = v.InferInput<typeof PostUpdateSchema>;

export const VisibilityChangeSchema = v.object({ visibility: VisibilitySchema });

export const LikeResultSchema = v.object({ liked: v.boolean(), likes: v.number() });
export type LikeResult = v.InferOutput<typeof LikeResultSchema>;
