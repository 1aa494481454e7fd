import { createContext, useContext, useEffect } from 'react';

/** An open document as the editor sees it: it can be saved, and may hold unsaved changes. */
export interface OpenDocument {
  save(): Promise<void>;
  dirty(): boolean;
}

/** What the open documents share with the editor: the runtime state and a way to save everything before a stop. */
export interface EditorContextValue {
  projectId: string;
  running: boolean;
  canEdit: boolean;
  registerSaver(key: string, document: OpenDocument): () => void;
  /** Saves every open document (before a version or a stop). */
  saveAll(): Promise<void>;
  /** Asks for "Run all" from the top bar: the active notebook listens. */
  runAllSignal: number;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditor outside the project editor');
  return value;
}

export function useSaver(key: string, save: () => Promise<void>, dirty: () => boolean) {
  const { registerSaver } = useEditor();
  useEffect(() => registerSaver(key, { save, dirty }), [registerSaver, key, save, dirty]);
}
