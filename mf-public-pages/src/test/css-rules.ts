/**
 * The grid-template-columns an element gets, per media condition, read from the style sheets emotion wrote
 * (jsdom parses them but does not evaluate media queries, so a test reads the rules themselves).
 */
export function gridColumnsByMedia(element: Element): Record<string, string> {
  const classes = [...element.classList];
  const found: Record<string, string> = {};
  const visit = (rules: CSSRuleList, media: string) => {
    for (const rule of [...rules]) {
      if (rule instanceof CSSMediaRule) visit(rule.cssRules, rule.conditionText || rule.media.mediaText);
      else if (rule instanceof CSSStyleRule && classes.some((c) => rule.selectorText === `.${c}`)) {
        const value = rule.style.getPropertyValue('grid-template-columns');
        if (value) found[media] = value;
      }
    }
  };
  for (const sheet of [...document.styleSheets]) visit(sheet.cssRules, 'all');
  return found;
}
