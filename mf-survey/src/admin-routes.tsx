import { Route, Routes } from '@app/router';
import LeadsPage from './features/leads/components/leads-page';

/**
 * The remote's routed screens (the shell's route table gives mf_survey /admin/leads). Its own chunk, loaded
 * only on these paths: the survey modal on Home never carries it.
 */
export default function AdminRoutes() {
  return (
    <Routes>
      <Route path="/admin/leads" element={<LeadsPage />} />
    </Routes>
  );
}
