import type { RemoteAppProps } from '@app/federation';
import { Route, Routes } from '@app/router';
import { PostEditorPage } from './features/editor/components/post-editor-page';
import { PostPage } from './features/post/components/post-page';
import { POST_ROUTE } from './features/post/route';
import { ResearchCenterPage } from './features/research-center/components/research-center-page';

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
