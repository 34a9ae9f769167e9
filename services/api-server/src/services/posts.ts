import type {
  Comment,
  LikeResult,
  Post,
  PostCard,
  PostCardOrTeaser,
  PostOrTeaser,
  Report,
  Stats,
  Visibility,
} from '@app/contracts';
import type { Clock } from '../clock';
import type { ReadPool } from '../db/read-pool';
import type { Sql } from '../db/sql';
import type { Caller } from './accounts';
import { CommentService } from './comments';
import type { Page } from './cursor';
import type { JsonText, ListQuery, PostWrite } from './post-model';
import { PostReader } from './post-reads';
import { PostStats } from './post-stats';
import { PostWriter } from './post-writes';

export { LIST_SQL, type ListQuery, LOCKED_MESSAGE, POST_NOT_FOUND, type PostWrite } from './post-model';

/**
 * Posts, comments, likes and aggregates over one database: the single entry point for routes, seed and CLI.
 * Reads and access checks live in PostReader, which the writers and comments share.
 */
export class PostService {
  private readonly reader: PostReader;
  private readonly writer: PostWriter;
  private readonly commentService: CommentService;
  private readonly aggregates: PostStats;

  constructor(sql: Sql, searchPool: ReadPool | null = null, searchCacheSize = 0, now: Clock = Date.now) {
    this.reader = new PostReader(sql, searchPool, searchCacheSize);
    this.writer = new PostWriter(sql, this.reader, now);
    this.commentService = new CommentService(sql, this.reader, now);
    this.aggregates = new PostStats(sql, now);
  }

  /** At start-up: posts without an excerpt (an older writer's rows, migration 5) get one. */
  init(): Promise<void> {
    return this.writer.fillExcerpts();
  }

  // --- reads ---

  /**
   * Lists and search answer one page of cards (never the content), each as its JSON text, and the cursor
   * of the next page.
   */
  list(caller: Caller | null, q: ListQuery): Promise<Page<JsonText<PostCardOrTeaser>>> {
    return this.reader.list(caller, q);
  }
  search(
    caller: Caller | null,
    q: Omit<ListQuery, 'status'> & { q: string },
  ): Promise<Page<JsonText<PostCardOrTeaser>>> {
    return this.reader.search(caller, q);
  }
  mine(caller: Caller, q: Pick<ListQuery, 'limit' | 'offset' | 'cursor'>): Promise<Page<JsonText<PostCard>>> {
    return this.reader.mine(caller, q);
  }
  /** Single read: counts a view (unless a prefetch); a post above the caller's tier is its teaser. */
  read(caller: Caller | null, idOrSlug: string, options?: { countView?: boolean }): Promise<PostOrTeaser> {
    return this.reader.read(caller, idOrSlug, options);
  }
  termCounts(caller: Caller | null, kind: 'tag' | 'category'): Promise<{ name: string; count: number }[]> {
    return this.aggregates.termCounts(caller, kind);
  }

  // --- writes ---

  create(authorId: number, input: Required<PostWrite>, at?: string): Promise<Post> {
    return this.writer.create(authorId, input, at);
  }
  update(caller: Caller, idOrSlug: string, input: PostWrite): Promise<Post> {
    return this.writer.update(caller, idOrSlug, input);
  }
  remove(caller: Caller, idOrSlug: string): Promise<void> {
    return this.writer.remove(caller, idOrSlug);
  }
  publish(caller: Caller, idOrSlug: string): Promise<Post> {
    return this.writer.publish(caller, idOrSlug);
  }
  setVisibility(caller: Caller, idOrSlug: string, visibility: Visibility): Promise<Post> {
    return this.writer.setVisibility(caller, idOrSlug, visibility);
  }
  toggleLike(caller: Caller, idOrSlug: string): Promise<LikeResult> {
    return this.writer.toggleLike(caller, idOrSlug);
  }

  // --- aggregates ---

  stats(caller: Caller): Promise<Stats> {
    return this.aggregates.stats(caller);
  }
  report(caller: Caller | null): Promise<Report> {
    return this.aggregates.report(caller);
  }

  // --- comments ---

  comments(caller: Caller | null, idOrSlug: string): Promise<Comment[]> {
    return this.commentService.comments(caller, idOrSlug);
  }
  addComment(caller: Caller, idOrSlug: string, content: string): Promise<Comment> {
    return this.commentService.addComment(caller, idOrSlug, content);
  }
  editComment(caller: Caller, commentId: string, content: string): Promise<Comment> {
    return this.commentService.editComment(caller, commentId, content);
  }
  deleteComment(caller: Caller, commentId: string): Promise<void> {
    return this.commentService.deleteComment(caller, commentId);
  }
  toggleCommentLike(caller: Caller, commentId: string): Promise<LikeResult> {
    return this.commentService.toggleCommentLike(caller, commentId);
  }
}
