import { renderMarkdown } from './markdown';

function render(markdown: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = renderMarkdown(markdown);
  return host;
}

describe('renderMarkdown', () => {
  it('renders ordinary Markdown', () => {
    const host = render('# Heading\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two');
    expect(host.querySelector('h1')?.textContent).toBe('Heading');
    expect(host.querySelector('strong')?.textContent).toBe('bold');
    expect(host.querySelectorAll('li')).toHaveLength(2);
    const link = host.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('removes script tags and inline event handlers', () => {
    const host = render(
      'Hi <script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned = 2">\n\n<div onclick="alert(1)" onmouseover="alert(2)">x</div>\n\n<svg onload="alert(3)"><circle/></svg>',
    );
    expect(host.querySelector('script')).toBeNull();
    for (const el of host.querySelectorAll('*')) {
      for (const attr of el.attributes) expect(attr.name.startsWith('on')).toBe(false);
    }
    expect(host.innerHTML).not.toMatch(/onerror|onclick|onload|onmouseover|__pwned/);
  });

  it('removes javascript: and data: URLs from Markdown and HTML links', () => {
    const host = render(
      '[x](javascript:alert(1)) [y](JaVaScRiPt:alert(2)) <a href="javascript:alert(3)">z</a> [d](data:text/html;base64,PHNjcmlwdD4=) <a href=" javascript:alert(4)">w</a>',
    );
    for (const a of host.querySelectorAll('a')) {
      const href = a.getAttribute('href') ?? '';
      expect(href.toLowerCase()).not.toContain('javascript');
      expect(href.toLowerCase()).not.toContain('data:');
    }
    expect(host.innerHTML.toLowerCase()).not.toContain('javascript:');
  });

  it('drops iframes, forms, styles and style attributes', () => {
    const host = render(
      '<iframe src="https://evil.test"></iframe><form action="/x"><input name="a"></form><style>body{display:none}</style><p style="position:fixed">p</p>',
    );
    expect(host.querySelector('iframe, form, input, style')).toBeNull();
    expect(host.querySelector('p')?.hasAttribute('style')).toBe(false);
  });
});
