/**
 * Resolves in a new task, so the work after it does not lengthen the current one: the browser can paint
 * and handle input in between (Total Blocking Time counts every task past 50 ms on a slow phone).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
