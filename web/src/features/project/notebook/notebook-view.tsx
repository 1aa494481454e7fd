import { CaretRightOutlined, FastForwardOutlined, PlusOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Skeleton, Tag } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button';
import { useEditor, useSaver } from '../editor-context';
import { SaveIndicator } from '../save-indicator';
import { NotebookCell } from './notebook-cell';
import { useNotebook } from './use-notebook';

const STATE_COLOURS: Record<string, string> = {
  running: 'processing',
  done: 'success',
  failed: 'error',
  error: 'error',
};

/** A notebook tab: toolbar, cells, keyboard shortcuts of Jupyter's command mode, autosave. */
export function NotebookView({ path, active }: { path: string; active: boolean }) {
  const { t } = useTranslation('project');
  const { projectId, running, canEdit, runAllSignal } = useEditor();
  const nb = useNotebook(projectId, path, running, canEdit);
  const [selected, setSelected] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const lastKey = useRef<string>('');
  useSaver(path, nb.document);

  const firstSignal = useRef(runAllSignal);
  useEffect(() => {
    if (active && runAllSignal !== firstSignal.current) void nb.runAll();
    // Only a new signal runs the notebook.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runAllSignal]);

  if (nb.loadError) return <Alert type="error" showIcon title={t('editor.tooLarge')} />;
  if (!nb.notebook) return <Skeleton active />;
  const cells = nb.notebook.cells;
  const current = cells[Math.min(selected, cells.length - 1)];

  const runAndAdvance = (index: number, advance: boolean) => {
    const cell = cells[index];
    if (!cell) return;
    setEditing(null);
    void nb.runCell(cell);
    if (!advance) return;
    if (index === cells.length - 1) {
      const added = nb.insert(cells.length, 'code');
      setEditing(added.id);
    }
    setSelected(index + 1);
  };

  // Command mode (focus on a cell, not in its text): A and B add a cell above or below, D D deletes it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (!canEdit || (event.target as HTMLElement).closest('.cm-editor') || !current) return;
    const key = event.key.toLowerCase();
    if (key === 'a' || key === 'b') {
      const added = nb.insert(key === 'a' ? selected : selected + 1, 'code');
      setSelected(key === 'a' ? selected : selected + 1);
      setEditing(added.id);
    } else if (key === 'd' && lastKey.current === 'd') {
      nb.remove(current.id);
      lastKey.current = '';
      return;
    } else if (key === 'enter') {
      setEditing(current.id);
    }
    lastKey.current = key;
  };

  return (
    <div className="notebook">
      <h2 className="visually-hidden">{path}</h2>
      <div className="notebook__toolbar" role="toolbar" aria-label={t('notebook.toolbar')}>
        {canEdit && (
          <>
            <Button
              size="small"
              icon={<CaretRightOutlined />}
              disabled={!running || !current}
              onClick={() => runAndAdvance(selected, true)}
            >
              {t('notebook.run')}
            </Button>
            <Button size="small" icon={<FastForwardOutlined />} disabled={!running} onClick={() => void nb.runAll()}>
              {t('notebook.runAll')}
            </Button>
            <Button size="small" icon={<StopOutlined />} disabled={!running} onClick={() => void nb.interrupt()}>
              {t('notebook.interrupt')}
            </Button>
            <Button size="small" icon={<ReloadOutlined />} disabled={!running} onClick={() => void nb.restart()}>
              {t('notebook.restart')}
            </Button>
            <Button size="small" icon={<PlusOutlined />} onClick={() => setEditing(nb.insert(selected + 1, 'code').id)}>
              {t('notebook.addCode')}
            </Button>
            <Button
              size="small"
              icon={<PlusOutlined />}
              onClick={() => setEditing(nb.insert(selected + 1, 'markdown').id)}
            >
              {t('notebook.addMarkdown')}
            </Button>
          </>
        )}
        <span className="notebook__status">
          {running ? (
            <Tag color={STATE_COLOURS[nb.runState] ?? 'default'} role="status" data-run-state={nb.runState}>
              {t(`notebook.runState.${nb.runState}`)}
            </Tag>
          ) : (
            canEdit && <span role="status">{t('notebook.startFirst')}</span>
          )}
          {canEdit && <SaveIndicator state={nb.save} onSave={() => void nb.saveNow()} />}
        </span>
      </div>
      {nb.kernelFailure && (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: nb.dismissKernelFailure }}
          title={t(nb.kernelFailure === 'interrupt' ? 'notebook.interruptFailed' : 'notebook.restartFailed')}
        />
      )}
      {canEdit && <p className="notebook__hint">{t('notebook.shortcuts')}</p>}
      <div className="notebook__cells" onKeyDown={onKeyDown}>
        {cells.map((cell, index) => (
          <NotebookCell
            key={cell.id}
            cell={cell}
            index={index}
            selected={index === selected}
            editing={editing === cell.id}
            running={nb.runningCells.has(cell.id)}
            readOnly={!canEdit}
            onSelect={() => setSelected(index)}
            onEdit={(on) => setEditing(on ? cell.id : null)}
            onChange={(source) => nb.setSource(cell.id, source)}
            onRun={(advance) => runAndAdvance(index, advance)}
            onMove={(delta) => nb.move(cell.id, delta)}
            onDelete={() => nb.remove(cell.id)}
          />
        ))}
      </div>
    </div>
  );
}
