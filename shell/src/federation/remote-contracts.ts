// The shell's calls against each remote's published declaration of './App' (issue 45). Type-only: nothing
// here reaches the bundle. `pnpm typecheck` generates the declarations from the remotes' sources first
// (remote-types); a remote whose App no longer accepts what the shell passes (ShellCalls) fails here, in
// the shell's CI. Against the live releases, the deploy API makes the same check from each release's
// mf-compat.json.
import type { ShellCalls } from '@app/federation';
import type AccountApp from 'mf_account/App';
import type PublicPagesApp from 'mf_public_pages/App';
import type ResearchApp from 'mf_research/App';
import type SurveyApp from 'mf_survey/App';

/** true when the component accepts every props object the shell passes it. */
type Accepts<App, Passed> = App extends (props: infer Accepted) => unknown
  ? [Passed] extends [Accepted]
    ? true
    : false
  : false;

export type ShellCallsFit = {
  mf_account: Accepts<typeof AccountApp, ShellCalls['mf_account']>;
  mf_research: Accepts<typeof ResearchApp, ShellCalls['mf_research']>;
  mf_survey: Accepts<typeof SurveyApp, ShellCalls['mf_survey']>;
  mf_public_pages: Accepts<typeof PublicPagesApp, ShellCalls['mf_public_pages']>;
};

// A remote that stops accepting the shell's call turns its entry false, and this line fails to compile.
export const shellCallsFit: ShellCallsFit = {
  mf_account: true,
  mf_research: true,
  mf_survey: true,
  mf_public_pages: true,
};
