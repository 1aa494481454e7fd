import type { TFileNode } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { OpenDocument } from './editor-context';
import { projectKeys } from './project-api';

/** Whether `path` is `root` or inside it ('' holds everything). */
const isUnder = (root: string) => (path: string) => root === '' || path === root || path.startsWith(`${root}/`);

const documentsUnder = (savers: Map<string, OpenDocument>, path: string) =>
  [...savers].filter(([key]) => isUnder(path)(key)).map(([, document]) => document);

function hasFile(nodes: TFileNode[], path: string): boolean {
  return nodes.some((n) => (n.kind === 'file' && n.path === path) || hasFile(n.children ?? [], path));
}

/**
 * The editor's tabs and the documents open in them. Until the learner opens something, the first notebook is
 * open, so a first-time learner sees code right away. Changes to the files of open documents (delete, rename,
 * move, a version's restore) go through here, so an open copy is never written back over them.
 */
export function useOpenTabs(projectId: string, tree: TFileNode[] | undefined) {
  const client = useQueryClient();
  const [openedTabs, setTabs] = useState<string[] | null>(null);
  const [chosen, setActive] = useState<string | null>(null);
  /** Changes when every tab reopens from the server (after a restore): their contents mount anew. */
  const [generation, setGeneration] = useState(0);
  const savers = useRef(new Map<string, OpenDocument>());

  const starter = tree?.find((n) => n.kind === 'file' && n.name.endsWith('.ipynb'))?.path;
  const tabs = openedTabs ?? (starter ? [starter] : []);
  const active = chosen ?? tabs[0] ?? '';
  // What is shown, for changes that end after an await.
  const shown = useRef({ tabs, active });
  useEffect(() => {
    shown.current = { tabs, active };
  });

  const open = useCallback((path: string) => {
    const current = shown.current.tabs;
    setTabs(current.includes(path) ? current : [...current, path]);
    setActive(path);
  }, []);

  /** Closes the tab of `path` and those inside it (a folder); their documents save as they close, unless held. */
  const close = useCallback((path: string) => {
    const inside = isUnder(path);
    const next = shown.current.tabs.filter((p) => !inside(p));
    setTabs(next);
    if (inside(shown.current.active)) setActive(next.at(-1) ?? '');
  }, []);

  const registerSaver = useCallback((key: string, document: OpenDocument) => {
    savers.current.set(key, document);
    return () => {
      // A document reopened at the same path may have registered already.
      if (savers.current.get(key) === document) savers.current.delete(key);
    };
  }, []);

  const saveUnder = useCallback(async (path: string) => {
    const results = await Promise.all(documentsUnder(savers.current, path).map((d) => d.save()));
    return results.every(Boolean);
  }, []);

  const holdUnder = useCallback(async (path: string) => {
    const releases = await Promise.all(documentsUnder(savers.current, path).map((d) => d.hold()));
    return () => releases.forEach((release) => release());
  }, []);

  /** Runs `send` with the documents under `path` held; they write again if it fails. */
  const whileHeld = useCallback(
    async (path: string, send: () => Promise<unknown>) => {
      const release = await holdUnder(path);
      try {
        await send();
      } catch (error) {
        release();
        throw error;
      }
    },
    [holdUnder],
  );

  const saveAll = useCallback(async () => void (await saveUnder('')), [saveUnder]);

  const deleteOpen = useCallback(
    async (path: string, send: () => Promise<unknown>) => {
      await whileHeld(path, send);
      // The held documents close without a last save: the server would create the deleted file again.
      close(path);
    },
    [whileHeld, close],
  );

  const moveOpen = useCallback(
    async (from: string, to: string, send: () => Promise<unknown>) => {
      if (!(await saveUnder(from))) return false;
      await whileHeld(from, send);
      const moved = (p: string) => (isUnder(from)(p) ? to + p.slice(from.length) : p);
      setTabs(shown.current.tabs.map(moved));
      setActive(moved(shown.current.active));
      return true;
    },
    [saveUnder, whileHeld],
  );

  const replaceFiles = useCallback(
    async (send: () => Promise<unknown>) => {
      await saveUnder('');
      await whileHeld('', send);
      await client.invalidateQueries({ queryKey: projectKeys.files(projectId) });
      const nodes = client.getQueryData<TFileNode[]>(projectKeys.files(projectId));
      if (nodes && shown.current.tabs.some((p) => !hasFile(nodes, p))) {
        const next = shown.current.tabs.filter((p) => hasFile(nodes, p));
        setTabs(next);
        if (!next.includes(shown.current.active)) setActive(next.at(-1) ?? '');
      }
      setGeneration((g) => g + 1);
    },
    [client, projectId, saveUnder, whileHeld],
  );

  // Leaving with unsaved changes asks first (the browser shows its own question).
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if ([...savers.current.values()].some((d) => d.dirty())) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  return {
    tabs,
    active,
    generation,
    setActive,
    open,
    close,
    registerSaver,
    saveAll,
    deleteOpen,
    moveOpen,
    replaceFiles,
  };
}
