import { API_PATHS, type PostInput, PostSchema, type PostUpdate } from '@app/contracts';
import { researchApi as api } from '../../../lib/research-client';

// Calls go through researchApi: no redirect on 401, and the pages are told (lib/session-expiry.ts).

export const createPost = (input: PostInput) => api.post(API_PATHS.posts, input, PostSchema);

export const updatePost = (id: number, input: PostUpdate) => api.put(API_PATHS.post(id), input, PostSchema);
