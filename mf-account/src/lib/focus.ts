/** Moves focus to the first named control of the form that has an error (DOM order = reading order). */
export function focusFirstError(form: HTMLFormElement | null, names: readonly string[]): void {
  if (!form) return;
  const wanted = new Set(names);
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLElement && wanted.has(element.getAttribute('name') ?? '')) {
      element.focus();
      return;
    }
  }
}
