import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('text cells', () => {
  // happy-dom's parser drops the tags of the first element DOMPurify sees, so each case starts with a paragraph.
  it('renders headings below the page headings, lists, emphasis, code and links', () => {
    expect(renderMarkdown('Steps\n# Plan\n- **load** data\n- draw `plot`\n[docs](https://example.org)')).toContain(
      '<h3>Plan</h3><ul><li><strong>load</strong> data</li><li>draw <code>plot</code></li></ul>' +
        '<p><a href="https://example.org" target="_blank" rel="noreferrer">docs</a></p>',
    );
  });

  it('never lets markup or script through', () => {
    const html = renderMarkdown(
      'Text\n<img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](https://a"onmouseover="alert(1))\n```\n<script>1</script>\n```',
    );
    const box = document.createElement('div');
    box.innerHTML = html;
    const elements = [...box.querySelectorAll('*')];
    expect(elements.map((e) => e.tagName.toLowerCase())).not.toContain('img');
    expect(elements.map((e) => e.tagName.toLowerCase())).not.toContain('script');
    expect(elements.flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on'))).toEqual([]);
    expect(elements.filter((e) => e.getAttribute('href')?.startsWith('javascript'))).toEqual([]);
    expect(html).toContain('&lt;script&gt;');
  });
});
