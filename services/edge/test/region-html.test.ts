import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cleanRegionHtml, MAX_REGION_BYTES } from '../src/region-html';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe("a release's region as the edge puts it into the page", () => {
  it('keeps what React renders as it is', () => {
    const html =
      '<div class="css-1"><h1>Research</h1><a href="/post/1" data-discover="true">A &amp; B</a><svg viewBox="0 0 1 1"><path d="M0 0"></path></svg><input type="text" value="x"></div>';
    expect(cleanRegionHtml(html)).toEqual({ html, removed: [] });
  });

  it('closes what a render leaves open, so the page goes on after the region', () => {
    expect(cleanRegionHtml('<div><p>open<table><tr><td>cell').html).toBe(
      '<div><p>open</p><table><tbody><tr><td>cell</td></tr></tbody></table></div>',
    );
    expect(cleanRegionHtml('<h1>x</h1><textarea>the rest').html).toBe(
      '<h1>x</h1><textarea>the rest</textarea>',
    );
    // A stray end tag cannot close the shell's own elements.
    expect(cleanRegionHtml('<p>a</p></div></main></body><p>b</p>').html).toBe('<p>a</p><p>b</p>');
  });

  it('drops what acts on the whole page or loads code the CSP would admit', () => {
    const { html, removed } = cleanRegionHtml(
      '<h1>x</h1><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example"><link rel="stylesheet" href="/x.css"><iframe src="/admin"></iframe><object data="x"></object><script src="/releases/r/v/x.js"></script><script type="application/json" id="page-plan">{}</script><plaintext>rest',
    );
    expect(html).toBe('<h1>x</h1>');
    expect(removed).toEqual([
      'base',
      'meta',
      'link',
      'iframe',
      'object',
      'script[src]',
      'script[type=application/json]',
      'plaintext',
    ]);
  });

  it("leaves an inline script for the CSP to refuse, unless it copies one of the page's own", () => {
    const own = "document.documentElement.setAttribute('data-theme','dark')";
    const { html, removed } = cleanRegionHtml(
      `<p>a</p><script>alert(1)</script><script>${own}</script><svg><script href="/x.js"></script></svg>`,
      new Set([hash(own)]),
    );
    expect(html).toBe('<p>a</p><script>alert(1)</script><svg></svg>');
    expect(removed).toEqual(["script (a copy of the page's own)", 'script[src]']);
  });

  it('cleans inside templates too, and refuses a region larger than the edge takes', () => {
    expect(cleanRegionHtml('<template><meta http-equiv="refresh" content="0"><b>t</b></template>').html).toBe(
      '<template><b>t</b></template>',
    );
    expect(() => cleanRegionHtml('x'.repeat(MAX_REGION_BYTES + 1))).toThrow(/larger than/);
  });
});
