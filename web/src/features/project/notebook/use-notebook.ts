import type { RunState } from '@aiedu/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { files } from '../project-api';
import { interruptKernel, notebookKernel, restartKernel } from '../jupyter-client';
import { useAutosave } from '../use-autosave';
import { KernelConnection } from './kernel-connection';
import { appendOutput, newCell, parseNotebook, serialiseNotebook, type Cell, type Notebook } from './notebook-model';

/** What Python could not do when asked from the toolbar. */
export type KernelFailure = 'interrupt' | 'restart';

/**
 * A notebook's document, kernel and saving. The document autosaves at most 30 s after a change (and on
 * demand before the runtime stops, and when its tab closes), so a crash loses at most the last 30 seconds.
 */
export function useNotebook(projectId: string, path: string, running: boolean, canEdit: boolean) {
  const [notebook, setNotebook] = useState<Notebook | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [runState, setRunState] = useState<RunState>('loading');
  const [runningCells, setRunningCells] = useState<Set<string>>(new Set());
  const [kernelFailure, setKernelFailure] = useState<KernelFailure | null>(null);
  const kernel = useRef<KernelConnection | null>(null);
  const latest = useRef<Notebook | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  useEffect(() => {
    files.read(projectId, path).then(
      (file) => setNotebook((latest.current = parseNotebook(file.content))),
      (error: unknown) => setLoadError(error),
    );
  }, [projectId, path]);

  useEffect(() => {
    if (!running) return;
    let connection: KernelConnection | null = null;
    let cancelled = false;
    notebookKernel(projectId, path).then(
      (kernelId) => {
        if (cancelled) return;
        connection = new KernelConnection(projectId, kernelId, setRunState);
        kernel.current = connection;
      },
      () => setRunState('error'),
    );
    return () => {
      cancelled = true;
      connection?.close();
      kernel.current = null;
    };
  }, [projectId, path, running]);

  const write = useCallback(async () => {
    if (latest.current) await files.save(projectId, path, serialiseNotebook(latest.current));
  }, [projectId, path]);
  const { state: save, saveNow, markDirty, document } = useAutosave(write, canEdit);

  const update = useCallback(
    (change: (n: Notebook) => Notebook) => {
      setNotebook((current) => {
        if (!current) return current;
        const next = change(current);
        latest.current = next;
        return next;
      });
      markDirty();
    },
    [markDirty],
  );

  const updateCell = useCallback(
    (id: string, change: (c: Cell) => Cell) =>
      update((n) => ({ ...n, cells: n.cells.map((c) => (c.id === id ? change(c) : c)) })),
    [update],
  );

  const runCell = useCallback(
    (cell: Cell): Promise<boolean> => {
      if (cell.cell_type !== 'code') return Promise.resolve(true);
      const connection = kernel.current;
      if (!connection) return Promise.resolve(false);
      // Cells run one after another, in the order they were asked for, as in Jupyter.
      const run = queue.current.then(async () => {
        setRunningCells((s) => new Set(s).add(cell.id));
        setRunState('running');
        updateCell(cell.id, (c) => ({ ...c, outputs: [], execution_count: null }));
        const ok = await connection.execute(cell.source, {
          onOutput: (output) => updateCell(cell.id, (c) => ({ ...c, outputs: appendOutput(c.outputs, output) })),
          onCount: (count) => updateCell(cell.id, (c) => ({ ...c, execution_count: count })),
        });
        setRunningCells((s) => {
          const next = new Set(s);
          next.delete(cell.id);
          return next;
        });
        setRunState((state) => (state === 'aborting' ? 'cancelled' : ok ? 'done' : 'failed'));
        return ok;
      });
      queue.current = run.catch(() => false);
      return run;
    },
    [updateCell],
  );

  const runAll = useCallback(async () => {
    for (const cell of latest.current?.cells ?? []) if (!(await runCell(cell))) break;
  }, [runCell]);

  // A refusal or a lost connection leaves the notebook in the error state with a message, never stuck.
  const interrupt = useCallback(async () => {
    if (!kernel.current) return;
    setKernelFailure(null);
    setRunState('aborting');
    try {
      await interruptKernel(projectId, kernel.current.kernelId);
    } catch {
      setRunState('error');
      setKernelFailure('interrupt');
    }
  }, [projectId]);

  const restart = useCallback(async () => {
    if (!kernel.current) return;
    setKernelFailure(null);
    setRunState('loading');
    try {
      await restartKernel(projectId, kernel.current.kernelId);
      setRunState('ready');
    } catch {
      setRunState('error');
      setKernelFailure('restart');
    }
  }, [projectId]);

  const insert = useCallback(
    (at: number, type: 'code' | 'markdown') => {
      const cell = newCell(type);
      update((n) => ({ ...n, cells: [...n.cells.slice(0, at), cell, ...n.cells.slice(at)] }));
      return cell;
    },
    [update],
  );

  const remove = useCallback(
    (id: string) =>
      update((n) => {
        const cells = n.cells.filter((c) => c.id !== id);
        return { ...n, cells: cells.length ? cells : [newCell('code')] };
      }),
    [update],
  );

  const move = useCallback(
    (id: string, delta: -1 | 1) =>
      update((n) => {
        const from = n.cells.findIndex((c) => c.id === id);
        const to = from + delta;
        if (from < 0 || to < 0 || to >= n.cells.length) return n;
        const cells = [...n.cells];
        [cells[from], cells[to]] = [cells[to]!, cells[from]!];
        return { ...n, cells };
      }),
    [update],
  );

  return {
    notebook,
    document,
    loadError,
    runState,
    kernelFailure,
    dismissKernelFailure: () => setKernelFailure(null),
    runningCells,
    save,
    saveNow,
    runCell,
    runAll,
    interrupt,
    restart,
    insert,
    remove,
    move,
    setSource: (id: string, source: string) => updateCell(id, (c) => ({ ...c, source })),
  };
}
