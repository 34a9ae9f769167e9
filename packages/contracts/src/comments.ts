import * as v from 'valibot';
import { AuthorSchema } from './posts';

// Comments under a post.

export const CommentSchema = v.object({
  id: v.number(),
  post_id: v.number(),
  content: v.string(),
  author: AuthorSchema,
  created_at: v.string(),
  updated_at: v.string(),
  likes: v.optional(v.number(), 0),
  liked: v.optional(v.boolean(), false),
});
export type Comment = v.InferOutput<typeof CommentSchema>;
export const CommentListSchema = v.array(CommentSchema);
export const CommentInputSchema = v.object({
  content: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Comment cannot be empty'),
    v.maxLength(5000, 'Comment must be at most 5,000 characters'),
  ),
});
