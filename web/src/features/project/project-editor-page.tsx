import { AppstoreOutlined, CodeOutlined, DatabaseOutlined, HistoryOutlined, SettingOutlined } from '@ant-design/icons';
import { Alert, Drawer, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useLoggedIn } from '../../app/session';
import { Button } from '../../ui/button';
import { DatasetsPanel } from './datasets-panel';
import { EditorContext, type EditorContextValue } from './editor-context';
import { EditorTopBar } from './editor-top-bar';
import { FileTreePanel } from './file-tree-panel';
import { FileTabs } from './file-tabs';
import { PackagesPanel } from './packages-panel';
import { useFileTree, useProject, useRuntime, useRuntimeActions } from './project-api';
import { useEditorLayout } from './use-editor-layout';
import { useKeepOnline } from './use-keep-online';
import { useOpenTabs } from './use-open-tabs';
import { ProjectError } from './project-error';
import { ProjectSettings } from './project-settings';
import { SignInPrompt } from './sign-in-prompt';
import { TerminalPanel } from './terminal-panel';
import { VersionsPanel } from './versions-panel';
import './project.css';

type Panel = 'datasets' | 'packages' | 'versions' | 'settings';

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
  const [panel, setPanel] = useState<Panel | null>(null);
  const [layout, setLayout] = useEditorLayout();
  const terminal = layout.terminal;
  const [runAllSignal, setRunAllSignal] = useState(0);
  // Only people who may change the project use its runtime; viewers and reviewing teachers read the saved files.
  const canEdit = project.data?.canEdit ?? false;
  const running = canEdit && runtime.data?.state === 'RUNNING';

  useKeepOnline(projectId, running);
  const editor = useOpenTabs(projectId, tree.data);
  const { tabs, active, saveAll, registerSaver, deleteOpen, moveOpen, replaceFiles } = editor;

  // When the runtime stops by itself (idle, compute time used up, crash) or is about to run out, save at once.
  const state = runtime.data?.state;
  const lastMinute = (runtime.data?.balance.remainingMinutes ?? 2) <= 1;
  useEffect(() => {
    if (state !== 'RUNNING' || lastMinute) void saveAll();
  }, [state, lastMinute, saveAll]);

  const context = useMemo<EditorContextValue>(
    () => ({ projectId, running, canEdit, registerSaver, saveAll, deleteOpen, moveOpen, replaceFiles, runAllSignal }),
    [projectId, running, canEdit, registerSaver, saveAll, deleteOpen, moveOpen, replaceFiles, runAllSignal],
  );

  if (project.isError) return <ProjectError error={project.error} />;
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
            <FileTreePanel onOpen={editor.open} />
          </aside>
          <main className="project-editor__centre" aria-label={t('editor.tabs')}>
            {tabs.length ? (
              <FileTabs
                tabs={tabs}
                active={active}
                generation={editor.generation}
                tree={tree.data ?? []}
                onSelect={editor.setActive}
                onClose={editor.close}
              />
            ) : (
              <p className="project-editor__empty">{t('editor.noFile')}</p>
            )}
          </main>
          <div className="project-editor__tools" role="toolbar" aria-label={t('editor.panels')}>
            <Button icon={<DatabaseOutlined />} onClick={() => setPanel('datasets')}>
              {t('editor.datasets')}
            </Button>
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
          {panel === 'datasets' && <DatasetsPanel />}
          {panel === 'packages' && <PackagesPanel />}
          {panel === 'versions' && <VersionsPanel />}
          {panel === 'settings' && <ProjectSettings project={project.data} />}
        </Drawer>
      </div>
    </EditorContext.Provider>
  );
}
