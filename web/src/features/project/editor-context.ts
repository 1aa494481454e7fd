import { createContext, useContext, useEffect } from 'react';

/** What the open documents share with the editor: the runtime state and a way to save everything before a stop. */
export interface EditorContextValue {
  projectId: string;
  running: boolean;
  canEdit: boolean;
  registerSaver(key: string, save: () => Promise<void>): () => void;
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

export function useSaver(key: string, save: () => Promise<void>) {
  const { registerSaver } = useEditor();
  useEffect(() => registerSaver(key, save), [registerSaver, key, save]);
}
