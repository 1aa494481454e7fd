import { openKindOf, openLimitOf } from '@aiedu/contracts';
import { Alert, Skeleton } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { useEditor, useSaver } from './editor-context';
import { downloadFile } from './file-tree-panel';
import { CodeEditor } from './notebook/code-editor';
import { NotebookView } from './notebook/notebook-view';
import { files } from './project-api';
import { SaveIndicator } from './save-indicator';
import { useAutosave } from './use-autosave';

function TextFile({ path }: { path: string }) {
  const { projectId, canEdit } = useEditor();
  const [content, setContent] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const latest = useRef('');

  useEffect(() => {
    files.read(projectId, path).then(
      (file) => setContent((latest.current = file.content)),
      () => setFailed(true),
    );
  }, [projectId, path]);

  const write = useCallback(async () => {
    await files.save(projectId, path, latest.current);
  }, [projectId, path]);
  // Saved at most 30 s after a change, and when the tab closes.
  const { state: save, saveNow, markDirty, document } = useAutosave(write, canEdit);
  useSaver(path, document);

  if (failed) return <TooLarge path={path} />;
  if (content === null) return <Skeleton active />;
  return (
    <div className="text-file">
      {canEdit && <SaveIndicator state={save} onSave={() => void saveNow()} />}
      <CodeEditor
        value={content}
        label={path}
        language={path.endsWith('.py') ? 'python' : 'text'}
        readOnly={!canEdit}
        onChange={(value) => {
          latest.current = value;
          markDirty();
        }}
      />
    </div>
  );
}

function TooLarge({ path, unsupported }: { path: string; unsupported?: boolean }) {
  const { t } = useTranslation('project');
  const { projectId } = useEditor();
  return (
    <Alert
      type="warning"
      showIcon
      title={t(unsupported ? 'editor.cannotOpen' : 'editor.tooLarge')}
      action={<Button onClick={() => void downloadFile(projectId, path)}>{t('editor.download')}</Button>}
    />
  );
}

/** Images, PDF, audio and video, fetched with the caller's token and shown from a local object URL. */
function MediaFile({ path, kind }: { path: string; kind: 'image' | 'pdf' | 'video' | 'audio' }) {
  const { projectId } = useEditor();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: string | null = null;
    files.blob(projectId, path).then(
      (blob) => setUrl((made = URL.createObjectURL(blob))),
      () => setFailed(true),
    );
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [projectId, path]);
  if (failed) return <TooLarge path={path} />;
  if (!url) return <Skeleton active />;
  if (kind === 'image') return <img className="media-file" src={url} alt={path} />;
  if (kind === 'pdf') return <iframe className="media-file media-file--pdf" src={url} title={path} />;
  if (kind === 'video') return <video className="media-file" src={url} controls aria-label={path} />;
  return <audio src={url} controls aria-label={path} />;
}

/** The content of one tab, by file kind; files over their kind's size limit are not opened (spec 5). */
export function FileViewer({ path, size, active }: { path: string; size: number; active: boolean }) {
  const kind = openKindOf(path);
  if (kind === 'other') return <TooLarge path={path} unsupported />;
  if (size > openLimitOf(kind)) return <TooLarge path={path} />;
  if (kind === 'notebook') return <NotebookView path={path} active={active} />;
  if (kind === 'text') return <TextFile path={path} />;
  return <MediaFile path={path} kind={kind} />;
}
