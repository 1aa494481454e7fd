import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/**
 * A section's Markdown as HTML: headings, images, code blocks and `$…$` formulas (shown as code, so no script or
 * math engine is needed). DOMPurify removes scripts, event handlers and `javascript:` links from the result.
 */
export function renderMarkdown(source: string): string {
  // Without a DOM to sanitise in, show the text as text rather than trust it.
  if (!DOMPurify.isSupported) return source.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = marked.parse(source, { async: false, gfm: true, breaks: false });
  // The page and the section own h1 and h2: the author's headings start at h3.
  const shifted = html.replace(/<(\/?)h([1-6])([\s>])/g, (_m, close: string, level: string, rest: string) => {
    return `<${close}h${Math.min(6, Number(level) + 2)}${rest}`;
  });
  // A column's alignment as a class: the `align` attribute marked writes is obsolete HTML.
  const aligned = shifted.replace(/<(td|th) align="(left|right|center)">/g, '<$1 class="course-markdown__$2">');
  const withFormulas = aligned.replace(/\$([^$\n]+)\$/g, '<code class="formula">$1</code>');
  return DOMPurify.sanitize(withFormulas, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form'] });
}

export function MarkdownView({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className="course-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
