import { useMemo } from 'react';
import { renderMarkdown } from '../course/markdown-view';

/**
 * The author's Markdown under a section's h2: its highest heading becomes an h3 and the others follow, whatever
 * level the author started at, so the page's headings never skip a level.
 */
export function datasetMarkdown(source: string): string {
  const html = renderMarkdown(source);
  const levels = [...html.matchAll(/<h([3-6])[\s>]/g)].map((m) => Number(m[1]));
  const shift = levels.length ? Math.min(...levels) - 3 : 0;
  if (!shift) return html;
  return html.replace(/<(\/?)h([3-6])([\s>])/g, (_m, close: string, level: string, rest: string) => {
    return `<${close}h${Number(level) - shift}${rest}`;
  });
}

export function DatasetMarkdown({ source }: { source: string }) {
  const html = useMemo(() => datasetMarkdown(source), [source]);
  return <div className="course-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
