/**
 * The value emotion declared for a property on an element's own class rules (the last one wins, as in the
 * cascade). jsdom's computed style cannot expand shorthands that use var(), which every theme colour does,
 * so a test reads the declarations themselves.
 */
export function declaredStyle(element: Element, property: string): string {
  const selectors = new Set([...element.classList].map((name) => `.${name}`));
  let value = '';
  for (const sheet of [...document.styleSheets]) {
    for (const rule of [...sheet.cssRules]) {
      if (rule instanceof CSSStyleRule && selectors.has(rule.selectorText)) {
        value = rule.style.getPropertyValue(property) || value;
      }
    }
  }
  return value;
}
