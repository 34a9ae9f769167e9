import { api } from '@app/api-client';
import {
  API_PATHS,
  type Comment,
  CommentListSchema,
  CommentSchema,
  isTeaser,
  LikeResultSchema,
  type Post,
  type PostOrTeaser,
  PostOrTeaserSchema,
  PostSchema,
  type Visibility,
} from '@app/contracts';

// A 401 ends the session; research screens then say so in place (@app/session, the shell's route table).

/** The whole post, for the editor (only its author or an administrator edits, and they never get a teaser). */
export const getPost = (idOrSlug: string, signal?: AbortSignal): Promise<Post> =>
  api.get(API_PATHS.post(idOrSlug), PostSchema, { signal });

/** For the post page: the post, or its teaser (`locked`) when it is above the caller's tier. */
export const readPost = (idOrSlug: string, signal?: AbortSignal): Promise<PostOrTeaser> =>
  api.get(API_PATHS.post(idOrSlug), PostOrTeaserSchema, { signal });

/**
 * readPost's answer when the edge primed the page with it (a guest's first screen), else undefined.
 * Only a whole post: a teaser is what a guest gets, but the page may be a member's, who must never see
 * "locked" flash over research they may read (the page then shows its loading state until it knows).
 */
export function peekPost(idOrSlug: string): Post | undefined {
  const primed = api.peek(API_PATHS.post(idOrSlug), PostOrTeaserSchema);
  return primed && !isTeaser(primed) ? primed : undefined;
}

/** What a guest's first screen of a post's page is made from: readPost's request (src/prerender.tsx). */
export const postPageRequests = (idOrSlug: string): string[] => [API_PATHS.post(idOrSlug)];

export const toggleLike = (id: number) => api.post(API_PATHS.postLike(id), {}, LikeResultSchema);

export const publishPost = (id: number) => api.put(API_PATHS.postPublish(id), {}, PostSchema);

export const changeVisibility = (id: number, visibility: Visibility) =>
  api.put(API_PATHS.postVisibility(id), { visibility }, PostSchema);

export const deletePost = (id: number) => api.delete(API_PATHS.post(id), null);

export const getComments = (postId: number, signal?: AbortSignal): Promise<Comment[]> =>
  api.get(API_PATHS.postComments(postId), CommentListSchema, { signal });

export const addComment = (postId: number, content: string) =>
  api.post(API_PATHS.postComments(postId), { content }, CommentSchema);

export const editComment = (id: number, content: string) =>
  api.put(API_PATHS.comment(id), { content }, CommentSchema);

export const deleteComment = (id: number) => api.delete(API_PATHS.comment(id), null);
