import type { RemoteAppProps } from '@app/federation';
import { Route, Routes } from '@app/router';
import { deferredComponent } from './components/deferred-component';
import { POST_ROUTE } from './features/post/route';
import { ResearchCenterPage } from './features/research-center/components/research-center-page';

// The post page and the editor (with marked and DOMPurify) are evaluated when first shown: the Research
// Center, the usual way in, does not pay for them (components/deferred-component.ts).
const PostPage = deferredComponent(() =>
  import(/* webpackMode: "eager" */ './features/post/components/post-page').then((m) => m.PostPage),
);
const PostEditorPage = deferredComponent(() =>
  import(/* webpackMode: "eager" */ './features/editor/components/post-editor-page').then(
    (m) => m.PostEditorPage,
  ),
);

/** The remote's one exposed module: it renders its own routes (absolute paths, see the shell's route table). */
export default function App(_props: RemoteAppProps) {
  return (
    <Routes>
      <Route path="/research-center" element={<ResearchCenterPage />} />
      <Route path="/research" element={<ResearchCenterPage />} />
      <Route path="/create-post" element={<PostEditorPage />} />
      <Route path={POST_ROUTE} element={<PostPage />} />
      <Route path={`${POST_ROUTE}/edit`} element={<PostEditorPage />} />
      <Route path="*" element={null} />
    </Routes>
  );
}
