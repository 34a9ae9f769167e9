import { api } from '@app/api-client';
import {
  API_PATHS,
  type Comment,
  CommentListSchema,
  CommentSchema,
  LikeResultSchema,
  type Post,
  PostSchema,
  type Visibility,
} from '@app/contracts';

// The post page shows 'Session expired' itself and keeps what the user typed, so no global redirect.
const OWN_401 = { redirectOn401: false } as const;

export const getPost = (idOrSlug: string, signal?: AbortSignal): Promise<Post> =>
  api.get(API_PATHS.post(idOrSlug), PostSchema, { signal, ...OWN_401 });

export const toggleLike = (id: number) => api.post(API_PATHS.postLike(id), {}, LikeResultSchema, OWN_401);

export const publishPost = (id: number) => api.put(API_PATHS.postPublish(id), {}, PostSchema, OWN_401);

export const changeVisibility = (id: number, visibility: Visibility) =>
  api.put(API_PATHS.postVisibility(id), { visibility }, PostSchema, OWN_401);

export const deletePost = (id: number) => api.delete(API_PATHS.post(id), null, OWN_401);

export const getComments = (postId: number, signal?: AbortSignal): Promise<Comment[]> =>
  api.get(API_PATHS.postComments(postId), CommentListSchema, { signal, ...OWN_401 });

export const addComment = (postId: number, content: string) =>
  api.post(API_PATHS.postComments(postId), { content }, CommentSchema, OWN_401);

export const editComment = (id: number, content: string) =>
  api.put(API_PATHS.comment(id), { content }, CommentSchema, OWN_401);

export const deleteComment = (id: number) => api.delete(API_PATHS.comment(id), null, OWN_401);
