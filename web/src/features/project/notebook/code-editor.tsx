import { python } from '@codemirror/lang-python';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

export interface CodeEditorProps {
  value: string;
  language: 'python' | 'text';
  label: string;
  readOnly?: boolean;
  autoFocus?: boolean;
  onChange(value: string): void;
  /** Shift+Enter, Ctrl+Enter and Escape belong to the notebook, not the text. */
  onRun?(advance: boolean): void;
  onEscape?(): void;
}

/** CodeMirror 6 with Python highlighting; the document is owned by CodeMirror and reported on change. */
export function CodeEditor({
  value,
  language,
  label,
  readOnly,
  autoFocus,
  onChange,
  onRun,
  onEscape,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const handlers = useRef({ onChange, onRun, onEscape });
  useEffect(() => {
    handlers.current = { onChange, onRun, onEscape };
  });

  useEffect(() => {
    const notebookKeys = Prec.highest(
      keymap.of([
        { key: 'Shift-Enter', run: () => (handlers.current.onRun?.(true), true) },
        { key: 'Mod-Enter', run: () => (handlers.current.onRun?.(false), true) },
        { key: 'Escape', run: () => (handlers.current.onEscape?.(), true) },
      ]),
    );
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          notebookKeys,
          ...(language === 'python' ? [python()] : []),
          EditorView.lineWrapping,
          EditorState.readOnly.of(Boolean(readOnly)),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) handlers.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    if (autoFocus) editor.focus();
    return () => editor.destroy();
    // The editor is created once; later `value` changes from outside are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  return <div className="code-editor" ref={host} />;
}
