import { createContext, useContext, useEffect } from 'react';

/** An open document as the editor sees it: it can be saved, may hold unsaved changes, and can be held. */
export interface OpenDocument {
  /** Writes the unsaved changes; false when the write failed (the changes stay unsaved). */
  save(): Promise<boolean>;
  dirty(): boolean;
  /**
   * Stops writing, once a write on its way has ended: the file is about to be deleted, renamed or replaced on the
   * server, and the open copy must not be written back over it. Answers a function that lets it write again.
   */
  hold(): Promise<() => void>;
}

/** What the open documents share with the editor: the runtime state, and saving around changes to their files. */
export interface EditorContextValue {
  projectId: string;
  running: boolean;
  canEdit: boolean;
  registerSaver(key: string, document: OpenDocument): () => void;
  /** Saves every open document (before a version or a stop). */
  saveAll(): Promise<void>;
  /**
   * Deletes a file or folder (`send`) with the documents open there dropped unsaved and their tabs closed, so
   * nothing is written back to the deleted path.
   */
  deleteOpen(path: string, send: () => Promise<unknown>): Promise<void>;
  /**
   * Renames or moves a file or folder (`send`): the documents open there are saved first and their tabs follow
   * them to `to`. False, with nothing sent, when one of them could not be saved.
   */
  moveOpen(from: string, to: string, send: () => Promise<unknown>): Promise<boolean>;
  /**
   * Replaces the draft's files (`send`, a version's restore): open documents are saved first, then every tab
   * reopens from the server's files (or closes, its file gone); nothing open before is written back.
   */
  replaceFiles(send: () => Promise<unknown>): Promise<void>;
  /** Asks for "Run all" from the top bar: the active notebook listens. */
  runAllSignal: number;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditor outside the project editor');
  return value;
}

export function useSaver(key: string, document: OpenDocument) {
  const { registerSaver } = useEditor();
  useEffect(() => registerSaver(key, document), [registerSaver, key, document]);
}
