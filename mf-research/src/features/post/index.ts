// What other features of mf-research may use of the post feature; its other modules are its own.
export { getPost, postPageRequests } from './api/post-api';
export { MarkdownView } from './components/markdown-view';
export { MissingPostPage } from './components/post-status-page';
export { POST_ROUTE } from './route';
