import {
  type ContentType,
  fieldErrors,
  type Post,
  type PostInput,
  PostInputSchema,
  type PostStatus,
  type Visibility,
} from '@app/contracts';
import * as v from 'valibot';
import { splitList } from '../../../lib/format';

/** What the form holds: tags and categories are typed comma-separated. */
export interface FormValues {
  title: string;
  summary: string;
  content: string;
  content_type: ContentType;
  visibility: Visibility;
  tags: string;
  categories: string;
}

export type FieldName = keyof FormValues;
export const FIELD_ORDER: readonly FieldName[] = [
  'title',
  'summary',
  'content',
  'content_type',
  'visibility',
  'tags',
  'categories',
];

export const EMPTY_VALUES: FormValues = {
  title: '',
  summary: '',
  content: '',
  content_type: 'research_report',
  visibility: 'public',
  tags: '',
  categories: '',
};

export function valuesFromPost(post: Post): FormValues {
  return {
    title: post.title,
    summary: post.summary,
    content: post.content,
    content_type: post.content_type,
    visibility: post.visibility,
    tags: post.tags.join(', '),
    categories: post.categories.join(', '),
  };
}

/**
 * Checks the form with the API's own PostInputSchema, so the messages are the ones the server would send.
 * Errors on one tag ('tags.2') are shown on the tags field.
 */
export function validate(
  values: FormValues,
  status: PostStatus,
): { ok: true; input: PostInput } | { ok: false; errors: Partial<Record<FieldName, string>> } {
  const input: PostInput = {
    title: values.title,
    summary: values.summary,
    content: values.content,
    content_type: values.content_type,
    visibility: values.visibility,
    status,
    tags: splitList(values.tags),
    categories: splitList(values.categories),
  };
  const parsed = v.safeParse(PostInputSchema, input);
  if (parsed.success) return { ok: true, input: parsed.output };
  const errors: Partial<Record<FieldName, string>> = {};
  for (const [path, message] of Object.entries(fieldErrors(parsed.issues))) {
    const field = path.split('.')[0] as FieldName;
    if (FIELD_ORDER.includes(field) && !errors[field]) errors[field] = message;
  }
  return { ok: false, errors };
}

export const sameValues = (a: FormValues, b: FormValues) => FIELD_ORDER.every((key) => a[key] === b[key]);
