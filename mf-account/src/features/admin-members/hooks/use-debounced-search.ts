import { useEffect, useRef, useState } from 'react';

/** How long typing pauses before the list asks again: one request per word, not per keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box's own text, sent to `commit` once typing pauses. When the address changes from elsewhere
 * (Back, a link), the box shows the address's search again; our own commits are not echoed back into it.
 */
export function useDebouncedSearch(committed: string, commit: (q: string) => void) {
  const [text, setText] = useState(committed);
  const lastCommitted = useRef(committed);

  useEffect(() => {
    if (committed === lastCommitted.current) return;
    lastCommitted.current = committed;
    setText(committed);
  }, [committed]);

  const commitRef = useRef(commit);
  commitRef.current = commit;
  useEffect(() => {
    if (text.trim() === lastCommitted.current) return;
    const timer = setTimeout(() => {
      lastCommitted.current = text.trim();
      commitRef.current(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  /** Enter: at once, without waiting for the pause. */
  const commitNow = () => {
    lastCommitted.current = text.trim();
    commitRef.current(text);
  };
  return { text, setText, commitNow };
}
