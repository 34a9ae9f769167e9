import { api } from '@app/api-client';
import { API_PATHS, type PostInput, PostSchema, type PostUpdate } from '@app/contracts';

// A 401 while saving must not navigate away: the form (and what the user typed) stays on screen.
const OWN_401 = { redirectOn401: false } as const;

export const createPost = (input: PostInput) => api.post(API_PATHS.posts, input, PostSchema, OWN_401);

export const updatePost = (id: number, input: PostUpdate) =>
  api.put(API_PATHS.post(id), input, PostSchema, OWN_401);
