import { useCallback, useState } from 'react';
import { readSession } from '../../app/session';

export interface EditorLayout {
  /** Width of the file tree in pixels. */
  treeWidth: number;
  terminal: boolean;
}

const DEFAULT: EditorLayout = { treeWidth: 240, terminal: false };
const key = () => `editorLayout:${readSession().userId ?? 'anonymous'}`;

function read(): EditorLayout {
  try {
    return { ...DEFAULT, ...(JSON.parse(localStorage.getItem(key()) ?? '{}') as Partial<EditorLayout>) };
  } catch {
    return DEFAULT;
  }
}

/** The editor's layout (file tree width, terminal shown), remembered per user on this browser. */
export function useEditorLayout() {
  const [layout, setLayout] = useState<EditorLayout>(read);
  const update = useCallback((change: Partial<EditorLayout>) => {
    setLayout((current) => {
      const next = { ...current, ...change };
      try {
        localStorage.setItem(key(), JSON.stringify(next));
      } catch {
        // Storage may be unavailable; the layout still works for this visit.
      }
      return next;
    });
  }, []);
  return [layout, update] as const;
}
