import { AppstoreOutlined, CodeOutlined, HistoryOutlined, SettingOutlined } from '@ant-design/icons';
import { Alert, Drawer, Skeleton } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useLoggedIn } from '../../app/session';
import { Button } from '../../ui/button';
import { EditorContext, type EditorContextValue, type OpenDocument } from './editor-context';
import { EditorTopBar } from './editor-top-bar';
import { FileTreePanel } from './file-tree-panel';
import { FileTabs } from './file-tabs';
import { PackagesPanel } from './packages-panel';
import { useFileTree, useProject, useRuntime, useRuntimeActions } from './project-api';
import { useEditorLayout } from './use-editor-layout';
import { ProjectSettings } from './project-settings';
import { SignInPrompt } from './sign-in-prompt';
import { TerminalPanel } from './terminal-panel';
import { VersionsPanel } from './versions-panel';
import './project.css';

type Panel = 'packages' | 'versions' | 'settings';

/** The project editor: top bar, file tree, tabs of open files, tool drawer and terminal (UX.md). */
export function ProjectEditorPage() {
  const loggedIn = useLoggedIn();
  return loggedIn ? <ProjectEditor /> : <SignInPrompt />;
}

function ProjectEditor() {
  const { t } = useTranslation('project');
  const projectId = useParams().projectId ?? '';
  const project = useProject(projectId);
  const runtime = useRuntime(projectId);
  const tree = useFileTree(projectId);
  const { start, stop } = useRuntimeActions(projectId);
  const [openedTabs, setTabs] = useState<string[] | null>(null);
  const [chosen, setActive] = useState<string | null>(null);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [layout, setLayout] = useEditorLayout();
  const terminal = layout.terminal;
  const [runAllSignal, setRunAllSignal] = useState(0);
  const savers = useRef(new Map<string, OpenDocument>());
  // Only people who may change the project use its runtime; viewers and reviewing teachers read the saved files.
  const canEdit = project.data?.canEdit ?? false;
  const running = canEdit && runtime.data?.state === 'RUNNING';

  // Until the learner opens something, the first notebook is open, so a first-time learner sees code right away.
  const starter = tree.data?.find((n) => n.kind === 'file' && n.name.endsWith('.ipynb'))?.path;
  const tabs = openedTabs ?? (starter ? [starter] : []);
  const active = chosen ?? tabs[0] ?? '';

  const registerSaver = useCallback((key: string, document: OpenDocument) => {
    savers.current.set(key, document);
    return () => void savers.current.delete(key);
  }, []);
  const saveAll = useCallback(async () => {
    await Promise.all([...savers.current.values()].map((d) => d.save()));
  }, []);

  // When the runtime stops by itself (idle, compute time used up, crash) or is about to run out, save at once.
  const state = runtime.data?.state;
  const lastMinute = (runtime.data?.balance.remainingMinutes ?? 2) <= 1;
  useEffect(() => {
    if (state !== 'RUNNING' || lastMinute) void saveAll();
  }, [state, lastMinute, saveAll]);

  // Leaving with unsaved changes asks first (the browser shows its own question).
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if ([...savers.current.values()].some((d) => d.dirty())) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  const context = useMemo<EditorContextValue>(
    () => ({ projectId, running, canEdit, registerSaver, saveAll, runAllSignal }),
    [projectId, running, canEdit, registerSaver, saveAll, runAllSignal],
  );

  const open = (path: string) => {
    setTabs(tabs.includes(path) ? tabs : [...tabs, path]);
    setActive(path);
  };
  const close = (path: string) => {
    const next = tabs.filter((p) => p !== path && !p.startsWith(`${path}/`));
    setTabs(next);
    if (active === path || active.startsWith(`${path}/`)) setActive(next.at(-1) ?? '');
  };

  if (project.isError) return <Alert type="error" showIcon title={t('editor.noFile')} />;
  if (!project.data) return <Skeleton active className="page" />;

  return (
    <EditorContext.Provider value={context}>
      <div className="project-editor">
        <EditorTopBar
          project={project.data}
          runtime={runtime.data}
          startError={start.error}
          onStart={() => start.mutate()}
          onStop={async () => {
            await saveAll();
            stop.mutate();
          }}
          onRunAll={() => setRunAllSignal((n) => n + 1)}
        />
        {!canEdit && (
          <Alert
            type="info"
            showIcon
            title={
              project.data.reviewing ? t('editor.reviewing', { owner: project.data.ownerName }) : t('editor.readOnly')
            }
          />
        )}
        <div className="project-editor__body">
          <aside
            className="project-editor__left"
            style={{ width: layout.treeWidth }}
            // The pane is resizable by its corner (CSS resize); its width is kept when the pointer is released.
            onPointerUp={(event) => {
              const width = Math.round(event.currentTarget.getBoundingClientRect().width);
              if (Math.abs(width - layout.treeWidth) > 2) setLayout({ treeWidth: width });
            }}
          >
            <FileTreePanel onOpen={open} onClosed={close} />
          </aside>
          <main className="project-editor__centre" aria-label={t('editor.tabs')}>
            {tabs.length ? (
              <FileTabs tabs={tabs} active={active} tree={tree.data ?? []} onSelect={setActive} onClose={close} />
            ) : (
              <p className="project-editor__empty">{t('editor.noFile')}</p>
            )}
          </main>
          <div className="project-editor__tools" role="toolbar" aria-label={t('editor.panels')}>
            {canEdit && (
              <Button icon={<AppstoreOutlined />} onClick={() => setPanel('packages')}>
                {t('editor.packages')}
              </Button>
            )}
            <Button icon={<HistoryOutlined />} onClick={() => setPanel('versions')}>
              {t('editor.versions')}
            </Button>
            {canEdit && (
              <Button icon={<SettingOutlined />} onClick={() => setPanel('settings')}>
                {t('editor.settings')}
              </Button>
            )}
            {canEdit && (
              <Button
                icon={<CodeOutlined />}
                aria-pressed={terminal}
                onClick={() => setLayout({ terminal: !terminal })}
              >
                {t(terminal ? 'editor.hideTerminal' : 'editor.terminal')}
              </Button>
            )}
          </div>
        </div>
        {canEdit && terminal && <TerminalPanel />}
        <Drawer
          open={Boolean(panel)}
          size={480}
          title={panel ? t(`editor.${panel}`) : ''}
          onClose={() => setPanel(null)}
        >
          {panel === 'packages' && <PackagesPanel />}
          {panel === 'versions' && <VersionsPanel />}
          {panel === 'settings' && <ProjectSettings project={project.data} />}
        </Drawer>
      </div>
    </EditorContext.Provider>
  );
}
