import { renderMarkdown, sanitiseWith } from './markdown';

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

  it('shows raw HTML as text: no script, element or event handler from it reaches the DOM', () => {
    const host = render(
      'Hi <script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned = 2">\n\n<div onclick="alert(1)" onmouseover="alert(2)">x</div>\n\n<svg onload="alert(3)"><circle/></svg>',
    );
    expect(host.querySelector('script, img, div, svg')).toBeNull();
    for (const el of host.querySelectorAll('*')) {
      for (const attr of el.attributes) expect(attr.name.startsWith('on')).toBe(false);
    }
    // The author's text is still there, as text.
    expect(host.textContent).toContain('<img src=x onerror="window.__pwned = 2">');
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
    // No attribute anywhere carries one (raw HTML links are text, so only Markdown links are links).
    const values = [...host.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.value));
    expect(values.join(' ').toLowerCase()).not.toMatch(/javascript:|data:/);
    expect(host.querySelectorAll('a')).toHaveLength(3); // x, y and d, without their hrefs
  });

  it('never creates iframes, forms, styles or style attributes from raw HTML', () => {
    const host = render(
      '<iframe src="https://evil.test"></iframe><form action="/x"><input name="a"></form><style>body{display:none}</style><p style="position:fixed">p</p>',
    );
    expect(host.querySelector('iframe, form, input, style, [style]')).toBeNull();
  });

  it("sanitises with the DOM a server lends it (the edge's jsdom) just as in the browser", () => {
    // Another window than the page's own, as the server's is (a frame's, here).
    const frame = document.createElement('iframe');
    document.body.append(frame);
    sanitiseWith(frame.contentWindow as typeof window);
    try {
      const host = render('Read [this](javascript:alert(1)) and [that](https://example.com).');
      const [bad, good] = host.querySelectorAll('a');
      expect(bad?.hasAttribute('href')).toBe(false);
      expect(good?.getAttribute('href')).toBe('https://example.com');
      expect(good?.getAttribute('rel')).toBe('noopener noreferrer');
    } finally {
      sanitiseWith(window);
      frame.remove();
    }
  });
});
