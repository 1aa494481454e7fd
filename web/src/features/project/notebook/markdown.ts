import { escapeHtml as escape } from '@aiedu/contracts';
import DOMPurify from 'dompurify';

function inline(s: string): string {
  return escape(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noreferrer">$1</a>');
}

/**
 * The Markdown of text cells: headings, paragraphs, lists, code blocks and inline emphasis, code and links.
 * Enough for lesson notes; the result is sanitised before it reaches the page.
 */
export function renderMarkdown(source: string): string {
  const html: string[] = [];
  const lines = source.split('\n');
  let list: string[] = [];
  const flush = () => {
    if (list.length) html.push(`<ul>${list.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`);
    list = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !lines[i]!.startsWith('```')) code.push(lines[i]!);
      html.push(`<pre><code>${escape(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (item) list.push(item[1]!);
    else {
      flush();
      // Headings inside a notebook sit below the page's own h1 and the notebook's h2.
      if (heading)
        html.push(
          `<h${Math.min(6, heading[1]!.length + 2)}>${inline(heading[2]!)}</h${Math.min(6, heading[1]!.length + 2)}>`,
        );
      else if (line.trim()) html.push(`<p>${inline(line)}</p>`);
    }
  }
  flush();
  // Links open in a new tab (with rel=noreferrer), so the notebook stays open.
  return DOMPurify.sanitize(html.join(''), { ADD_ATTR: ['target'] });
}
