import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown-view';

describe('section Markdown', () => {
  it('renders headings (from h3, below the page’s own), images, code blocks and formulas', () => {
    const html = renderMarkdown('# Robots\n\n![arm](/img/arm.png)\n\n```python\nprint("hi")\n```\n\nEnergy: $E=mc^2$');
    expect(html).toContain('<h3>Robots</h3>');
    expect(html).toContain('<img src="/img/arm.png" alt="arm">');
    expect(html).toContain('<code class="language-python">');
    expect(html).toContain('<code class="formula">E=mc^2</code>');
  });

  it('aligns table columns with classes, not the obsolete align attribute', () => {
    const html = renderMarkdown('| Model | Accuracy |\n|:---|---:|\n| kNN | 1.000 |');
    expect(html).toContain('<th class="course-markdown__left">Model</th>');
    expect(html).toContain('<td class="course-markdown__right">1.000</td>');
    expect(html).not.toContain('align=');
  });

  // One attack per input: happy-dom (unlike browsers) mis-parses a document that starts with a script.
  it.each([
    ['a script', 'Hello <script>alert(1)</script>', /<script/i],
    ['an event handler', '<img src="x" onerror="alert(2)">', /onerror/i],
    ['a javascript: link', '[click](javascript:alert(3))', /javascript:/i],
    ['a form', '<form action="/x"><input name="a"></form>', /<form/i],
  ])('removes %s', (_name, source, forbidden) => {
    const html = renderMarkdown(source);
    expect(html).not.toMatch(forbidden);
  });
});
