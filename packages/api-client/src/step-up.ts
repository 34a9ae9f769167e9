import type { ApiError } from './errors';

/**
 * Issue 46: a sensitive admin action the API refuses with 403 `stepUpRequired` is asked again once the
 * shell's dialog has verified a code for the session. The shell registers the dialog here; every screen's
 * call (whichever remote made it) goes through the one client, so no screen handles step-up itself. A
 * shared singleton (the api-client is one), so the shell's handler is the one the remotes' calls meet.
 */

/** Asks for a code and verifies it; true when the session has stepped up, false when the user gave up. */
export type StepUpHandler = (message: string) => Promise<boolean>;

let handler: StepUpHandler | null = null;
/** One dialog for every call refused at once: they all wait for the same answer. */
let asking: Promise<boolean> | null = null;

/** Registers the dialog; answers the function that removes it again. */
export function setStepUpHandler(next: StepUpHandler): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

/** True when `error` asks for a step-up and the dialog verified a code: the caller then sends again. */
export async function steppedUp(error: ApiError): Promise<boolean> {
  if (error.status !== 403 || error.body?.stepUpRequired !== true || !handler) return false;
  const ask = handler;
  asking ??= ask(error.message).finally(() => {
    asking = null;
  });
  return asking;
}
