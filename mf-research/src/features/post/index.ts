// What other features of mf-research may use of the post feature; its other modules are its own.
export { getPost } from './api/post-api';
export { MarkdownView } from './components/markdown-view';
export { MissingPostPage } from './components/post-status-page';
