import DOMPurify from 'dompurify';
import { useTranslation } from 'react-i18next';
import { stripAnsi, type Output } from './notebook-model';

const text = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join('') : (value ?? ''));

/** One output, richest form first: images, sanitised HTML, then plain text. */
function RichOutput({ output, index }: { output: Extract<Output, { data: unknown }>; index: number }) {
  const { t } = useTranslation('project');
  const { data } = output;
  const alt = t('notebook.chartAlt', { index });
  for (const mime of ['image/png', 'image/jpeg'] as const) {
    if (data[mime])
      return <img className="cell-output__image" alt={alt} src={`data:${mime};base64,${text(data[mime]).trim()}`} />;
  }
  if (data['image/svg+xml']) {
    // An <img> never runs the SVG's scripts.
    const svg = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text(data['image/svg+xml']))}`;
    return <img className="cell-output__image" alt={alt} src={svg} />;
  }
  if (data['text/html']) {
    const html = DOMPurify.sanitize(text(data['text/html']), { USE_PROFILES: { html: true } });
    return <div className="cell-output__html" dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return <pre className="cell-output__text">{text(data['text/plain'])}</pre>;
}

export function CellOutputs({ outputs, index, label }: { outputs: Output[]; index: number; label: string }) {
  if (!outputs.length) return null;
  return (
    <div className="cell-output" role="log" aria-label={label}>
      {outputs.map((output, i) => {
        if (output.output_type === 'stream') {
          return (
            <pre key={i} className={`cell-output__text cell-output__text--${output.name}`}>
              {output.text}
            </pre>
          );
        }
        if (output.output_type === 'error') {
          return (
            <pre key={i} className="cell-output__text cell-output__text--error">
              {stripAnsi(output.traceback.join('\n') || `${output.ename}: ${output.evalue}`)}
            </pre>
          );
        }
        return <RichOutput key={i} output={output} index={index} />;
      })}
    </div>
  );
}
