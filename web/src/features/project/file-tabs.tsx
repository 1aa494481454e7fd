import { CloseOutlined } from '@ant-design/icons';
import type { TFileNode } from '@aiedu/contracts';
import { useId, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { FileViewer } from './file-viewer';

function sizeOf(nodes: TFileNode[], path: string): number {
  for (const n of nodes) {
    if (n.path === path) return n.size;
    const inner = sizeOf(n.children ?? [], path);
    if (inner >= 0) return inner;
  }
  return -1;
}

/**
 * Open files as tabs (WAI-ARIA tabs: arrow keys move between them). Every open file stays mounted so an unsaved
 * notebook keeps its state and its autosave while another tab is shown.
 */
export function FileTabs({
  tabs,
  active,
  generation,
  tree,
  onSelect,
  onClose,
}: {
  tabs: string[];
  active: string;
  /** Changes when every tab reopens from the server's files: their contents mount anew. */
  generation: number;
  tree: TFileNode[];
  onSelect(path: string): void;
  onClose(path: string): void;
}) {
  const { t } = useTranslation('project');
  const id = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.indexOf(active);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step || at < 0) return;
    const next = tabs[(at + step + tabs.length) % tabs.length]!;
    onSelect(next);
    document.getElementById(`${id}-tab-${tabs.indexOf(next)}`)?.focus();
  };
  return (
    <div className="file-tabs">
      <div className="file-tabs__strip" role="tablist" aria-label={t('editor.tabs')} onKeyDown={onKeyDown}>
        {tabs.map((path, index) => (
          <button
            key={path}
            id={`${id}-tab-${index}`}
            type="button"
            role="tab"
            className="file-tabs__tab"
            aria-selected={path === active}
            aria-controls={`${id}-panel-${index}`}
            tabIndex={path === active ? 0 : -1}
            title={path}
            onClick={() => onSelect(path)}
          >
            {path.split('/').pop()}
          </button>
        ))}
      </div>
      {tabs.map((path, index) => (
        <div
          key={path}
          id={`${id}-panel-${index}`}
          role="tabpanel"
          aria-labelledby={`${id}-tab-${index}`}
          hidden={path !== active}
          className="file-tabs__panel"
        >
          <div className="file-tabs__panel-bar">
            <span className="file-tabs__path">{path}</span>
            <Button
              kind="icon"
              size="small"
              icon={<CloseOutlined />}
              aria-label={t('editor.closeTab', { name: path })}
              onClick={() => onClose(path)}
            />
          </div>
          <FileViewer key={generation} path={path} size={sizeOf(tree, path)} active={path === active} />
        </div>
      ))}
    </div>
  );
}
