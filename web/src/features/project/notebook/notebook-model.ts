/** Cells and outputs of an nbformat 4 notebook, read and written so Jupyter opens the file unchanged. */

export type Output =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string }
  | {
      output_type: 'execute_result' | 'display_data';
      data: Record<string, string | string[]>;
      metadata: Record<string, unknown>;
      execution_count?: number | null;
    }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

export interface Cell {
  id: string;
  cell_type: 'code' | 'markdown' | 'raw';
  source: string;
  metadata: Record<string, unknown>;
  execution_count: number | null;
  outputs: Output[];
}

export interface Notebook {
  cells: Cell[];
  metadata: Record<string, unknown>;
  nbformat: number;
  nbformat_minor: number;
}

const joinText = (value: unknown) => (Array.isArray(value) ? value.join('') : String(value ?? ''));
/** nbformat stores multi-line strings as lists of lines, each keeping its newline. */
const splitLines = (text: string) => (text === '' ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []));

export function newCellId(): string {
  return Math.random().toString(36).slice(2, 10);
}

export function newCell(type: 'code' | 'markdown'): Cell {
  return { id: newCellId(), cell_type: type, source: '', metadata: {}, execution_count: null, outputs: [] };
}

export function parseNotebook(text: string): Notebook {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const cells = ((raw.cells as Record<string, unknown>[]) ?? []).map((c) => ({
    id: typeof c.id === 'string' ? c.id : newCellId(),
    cell_type: (c.cell_type as Cell['cell_type']) ?? 'code',
    source: joinText(c.source),
    metadata: (c.metadata as Record<string, unknown>) ?? {},
    execution_count: (c.execution_count as number | null) ?? null,
    outputs: ((c.outputs as Record<string, unknown>[]) ?? []).map(normaliseOutput),
  }));
  return {
    cells: cells.length ? cells : [newCell('code')],
    metadata: (raw.metadata as Record<string, unknown>) ?? {},
    nbformat: 4,
    nbformat_minor: Math.max(5, Number(raw.nbformat_minor ?? 5)),
  };
}

function normaliseOutput(o: Record<string, unknown>): Output {
  if (o.output_type === 'stream') {
    return { output_type: 'stream', name: o.name === 'stderr' ? 'stderr' : 'stdout', text: joinText(o.text) };
  }
  if (o.output_type === 'error') {
    return {
      output_type: 'error',
      ename: String(o.ename ?? ''),
      evalue: String(o.evalue ?? ''),
      traceback: (o.traceback as string[]) ?? [],
    };
  }
  return {
    output_type: o.output_type === 'execute_result' ? 'execute_result' : 'display_data',
    data: (o.data as Record<string, string>) ?? {},
    metadata: (o.metadata as Record<string, unknown>) ?? {},
    ...(o.output_type === 'execute_result' ? { execution_count: (o.execution_count as number) ?? null } : {}),
  };
}

function serialiseOutput(o: Output): Record<string, unknown> {
  if (o.output_type === 'stream') return { ...o, text: splitLines(o.text) };
  if (o.output_type === 'error') return { ...o };
  const data = Object.fromEntries(
    Object.entries(o.data).map(([mime, value]) => [
      mime,
      mime.startsWith('text/') || mime === 'image/svg+xml' ? splitLines(joinText(value)) : value,
    ]),
  );
  return { ...o, data };
}

export function serialiseNotebook(notebook: Notebook): string {
  const cells = notebook.cells.map((c) => {
    const base = { cell_type: c.cell_type, id: c.id, metadata: c.metadata, source: splitLines(c.source) };
    return c.cell_type === 'code'
      ? { ...base, execution_count: c.execution_count, outputs: c.outputs.map(serialiseOutput) }
      : base;
  });
  const file = { cells, metadata: notebook.metadata, nbformat: 4, nbformat_minor: notebook.nbformat_minor };
  return `${JSON.stringify(sortKeys(file), null, 1)}\n`;
}

/** Jupyter writes keys in sorted order (json.dumps(sort_keys=True)); so do we, so files diff cleanly. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Adds an output the way Jupyter shows it: consecutive stream text of the same name is merged. */
export function appendOutput(outputs: Output[], output: Output): Output[] {
  const last = outputs.at(-1);
  if (output.output_type === 'stream' && last?.output_type === 'stream' && last.name === output.name) {
    return [...outputs.slice(0, -1), { ...last, text: last.text + output.text }];
  }
  return [...outputs, output];
}

/** Terminal colour codes in tracebacks are for consoles; the editor shows plain text. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
