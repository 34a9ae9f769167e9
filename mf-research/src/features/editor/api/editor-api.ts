import { api } from '@app/api-client';
import { API_PATHS, type PostInput, PostSchema, type PostUpdate } from '@app/contracts';

// A 401 ends the session; research screens then say so in place (@app/session, the shell's route table).

export const createPost = (input: PostInput) => api.post(API_PATHS.posts, input, PostSchema);

export const updatePost = (id: number, input: PostUpdate) => api.put(API_PATHS.post(id), input, PostSchema);
