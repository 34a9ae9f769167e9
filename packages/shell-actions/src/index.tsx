/**
 * How a remote asks the shell for something another remote provides (docs/decisions/0004-shell-actions.md).
 * Remotes never load each other: they call these actions, and the shell does the work (for example, it
 * loads mf-survey to open the survey). A shared singleton, so every remote sees the shell's provider.
 */
import { createContext, type ReactNode, useContext } from 'react';

export interface ShellActions {
  /** Open the market assessment survey modal. Focus returns to the element that was focused. */
  openSurvey: () => void;
}

const noop: ShellActions = {
  openSurvey: () => {
    console.warn('openSurvey() is provided by the shell; this remote runs alone.');
  },
};

const ShellActionsContext = createContext<ShellActions>(noop);

export function ShellActionsProvider({ value, children }: { value: ShellActions; children: ReactNode }) {
  return <ShellActionsContext.Provider value={value}>{children}</ShellActionsContext.Provider>;
}

export function useShellActions(): ShellActions {
  return useContext(ShellActionsContext);
}
