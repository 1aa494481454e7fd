import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { OpenDocument } from './editor-context';

export const AUTOSAVE_MS = 30_000;
export type SaveState = { kind: 'saved'; at: number } | { kind: 'dirty' } | { kind: 'saving' } | { kind: 'failed' };

/**
 * The saving of one open document: at most 30 s after a change, on demand, and when its tab closes (a crash loses
 * at most the last 30 seconds). Writes go one after another, so an older content never lands after a newer one.
 * While the document is held (its file is being deleted, renamed or replaced on the server) it writes nothing.
 *
 * `write` sends the document's latest content; it should change only when the document's file does.
 */
export function useAutosave(write: () => Promise<void>, canEdit: boolean) {
  const [state, setState] = useState<SaveState>(() => ({ kind: 'saved', at: Date.now() }));
  const dirty = useRef(false);
  const held = useRef(false);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const markDirty = useCallback(() => {
    dirty.current = true;
    setState({ kind: 'dirty' });
  }, []);

  const saveNow = useCallback((): Promise<boolean> => {
    const run = async () => {
      if (!canEdit) return true;
      if (held.current || !dirty.current) return !dirty.current;
      dirty.current = false;
      setState({ kind: 'saving' });
      try {
        await write();
        setState(dirty.current ? { kind: 'dirty' } : { kind: 'saved', at: Date.now() });
        return true;
      } catch {
        dirty.current = true;
        setState({ kind: 'failed' });
        return false;
      }
    };
    const next = queue.current.then(run);
    queue.current = next;
    return next;
  }, [write, canEdit]);

  useEffect(() => {
    const timer = window.setInterval(() => void saveNow(), AUTOSAVE_MS);
    return () => {
      window.clearInterval(timer);
      void saveNow();
    };
  }, [saveNow]);

  const hold = useCallback(async () => {
    held.current = true;
    // A write already on its way ends first, so nothing reaches the server after the change that follows.
    await queue.current;
    return () => {
      held.current = false;
    };
  }, []);

  const document = useMemo<OpenDocument>(() => ({ save: saveNow, dirty: () => dirty.current, hold }), [saveNow, hold]);

  return { state, saveNow, markDirty, document };
}
