import { css, type Theme } from '@emotion/react';
import { useMemo } from 'react';
import { renderMarkdown } from '../../../lib/markdown';

export const proseCss = (t: Theme) => css`
  line-height: 1.7;
  overflow-wrap: anywhere;
  h1, h2, h3, h4 { line-height: 1.3; margin: ${t.space(6)} 0 ${t.space(2)}; }
  a { color: ${t.color.primary}; }
  img { max-width: 100%; height: auto; }
  pre { background: ${t.color.surfaceAlt}; padding: ${t.space(3)}; border-radius: ${t.radius.sm}; overflow-x: auto; }
  code { background: ${t.color.surfaceAlt}; padding: 0 4px; border-radius: 4px; }
  pre code { padding: 0; }
  blockquote { margin: 0; padding-left: ${t.space(4)}; border-left: 4px solid ${t.color.border}; color: ${t.color.textMuted}; }
  table { border-collapse: collapse; }
  th, td { border: 1px solid ${t.color.border}; padding: ${t.space(1)} ${t.space(2)}; }
`;

/** Author Markdown, rendered and sanitised (lib/markdown.ts) before it reaches the DOM. */
export function MarkdownView({ markdown, label }: { markdown: string; label?: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return (
    // The HTML comes from renderMarkdown, which sanitises it with DOMPurify.
    <section css={proseCss} aria-label={label} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
