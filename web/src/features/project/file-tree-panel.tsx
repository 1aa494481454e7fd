import { EditOutlined, FileAddOutlined, FolderAddOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { PROJECT_LIMITS, UI_SIZES, type TFileNode } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Modal, Progress, Skeleton, Tree, type TreeDataNode } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverDiskFull } from '../../app/api-client';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { useEditor } from './editor-context';
import { FileNameDialog, MoveDialog, type NameDialog } from './file-dialogs';
import { files, projectKeys, useFileTree } from './project-api';
import { SelectionActions } from './selection-actions';
import { StorageUsage } from './storage-usage';
import { UploadError, uploadFile } from './upload';

function toTree(nodes: TFileNode[]): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.path,
    title: n.name,
    isLeaf: n.kind === 'file',
    children: n.children ? toTree(n.children) : undefined,
  }));
}

function find(nodes: TFileNode[], path: string): TFileNode | undefined {
  for (const n of nodes) {
    if (n.path === path) return n;
    const inner = find(n.children ?? [], path);
    if (inner) return inner;
  }
  return undefined;
}

export async function downloadFile(projectId: string, path: string) {
  const blob = await files.blob(projectId, path);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = path.split('/').pop() ?? path;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** Where `path` is after it moved into `folder` or was renamed `name` in its own folder. */
const joinPath = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);
const parentOf = (path: string) => path.split('/').slice(0, -1).join('/');

/**
 * The project's files: create, rename, move, delete, upload, download; a click opens a file in a tab. Open files
 * that are deleted close unsaved; those renamed or moved are saved first and stay open at their new place.
 */
export function FileTreePanel({ onOpen }: { onOpen(path: string): void }) {
  const { t } = useTranslation('project');
  const { projectId, canEdit, deleteOpen, moveOpen } = useEditor();
  const client = useQueryClient();
  const tree = useFileTree(projectId);
  // Confirmations render inside the editor (its theme and language), not in a root of their own.
  const [modal, modalHost] = Modal.useModal();
  const [selected, setSelected] = useState<string>('');
  const [nameDialog, setNameDialog] = useState<NameDialog | null>(null);
  /** The folder dialog, moving the selection or copying it. */
  const [folderDialog, setFolderDialog] = useState<'move' | 'copy' | null>(null);
  const [progress, setProgress] = useState<{ percent: number; secondsLeft: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);
  const node = find(nodes, selected);
  const folder = node ? (node.kind === 'folder' ? node.path : parentOf(node.path)) : '';
  const refresh = () => client.invalidateQueries({ queryKey: projectKeys.files(projectId) });
  const done = async () => {
    await Promise.all([refresh(), client.invalidateQueries({ queryKey: projectKeys.storage(projectId) })]);
  };

  /** Copies the selection into `toFolder` (beside it when undefined) and selects the copy. */
  const copy = async (toFolder?: string) => {
    if (!node) return;
    const { path } = await files.copy(projectId, node.path, toFolder);
    toast.success(t('tree.copied', { name: path.split('/').pop() }));
    setSelected(path);
    await done();
  };

  const create = (kind: 'file' | 'folder', initial: string) =>
    setNameDialog({
      title: t(kind === 'folder' ? 'tree.newFolder' : initial ? 'tree.newNotebook' : 'tree.newFile'),
      initial,
      onSubmit: async (name) => {
        const { path } = await files.create(projectId, folder, name, kind);
        await done();
        if (kind === 'file') onOpen(path);
      },
    });

  const upload = async (file: File) => {
    // The server refuses a larger file only once it has all come: say so before sending it.
    if (file.size > PROJECT_LIMITS.uploadBytes) return void toast.error(t('fileTooLarge', { ns: 'errors' }));
    setProgress({ percent: 0, secondsLeft: 0 });
    try {
      const result = await uploadFile(projectId, folder, file, setProgress);
      if (result.errorCode === '1000') toast.success(t('tree.uploaded'));
      else if (serverDiskFull(result.data)) toast.error(t('serverDiskFull', { ns: 'common' }));
      else toast.error(result.errorMsg);
    } catch (error) {
      const network = error instanceof UploadError && error.reason === 'network';
      toast.error(t(network ? 'networkError' : 'uploadFailed', { ns: 'errors' }));
    } finally {
      setProgress(null);
      await done();
    }
  };

  const relocate = async (from: string, to: string, send: () => Promise<unknown>) => {
    if (!(await moveOpen(from, to, send))) return void toast.error(t('tree.notSaved'));
    setSelected(to);
    await done();
  };

  const remove = () =>
    node &&
    modal.confirm({
      title: t('tree.deleteTitle', { name: node.name }),
      content: t('tree.deleteBody'),
      width: UI_SIZES.confirmDialogWidth,
      okText: t('tree.delete'),
      okButtonProps: { danger: true },
      cancelText: t('tree.cancel'),
      onOk: async () => {
        await deleteOpen(node.path, () => files.remove(projectId, node.path));
        setSelected('');
        await done();
      },
    });

  return (
    <nav className="file-tree" aria-label={t('editor.files')}>
      {modalHost}
      <h2 className="panel-title">{t('editor.files')}</h2>
      {canEdit && (
        <div className="file-tree__actions" role="toolbar" aria-label={t('editor.files')}>
          <Button
            kind="icon"
            size="small"
            icon={<FileAddOutlined />}
            aria-label={t('tree.newNotebook')}
            onClick={() => create('file', 'notebook.ipynb')}
          />
          <Button
            kind="icon"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('tree.newFile')}
            onClick={() => create('file', '')}
          />
          <Button
            kind="icon"
            size="small"
            icon={<FolderAddOutlined />}
            aria-label={t('tree.newFolder')}
            onClick={() => create('folder', '')}
          />
          <Button
            kind="icon"
            size="small"
            icon={<UploadOutlined />}
            aria-label={t('tree.upload')}
            onClick={() => input.current?.click()}
          />
          <Button
            kind="icon"
            size="small"
            icon={<ReloadOutlined />}
            aria-label={t('tree.refresh')}
            onClick={() => void refresh()}
          />
          <input
            ref={input}
            type="file"
            hidden
            aria-label={t('tree.upload')}
            data-testid="upload-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void upload(file);
            }}
          />
        </div>
      )}
      {progress && (
        <div role="status">
          <Progress percent={progress.percent} size="small" showInfo={false} aria-label={t('tree.upload')} />
          <span className="panel-hint">
            {t('tree.uploading', { percent: progress.percent, seconds: progress.secondsLeft })}
          </span>
        </div>
      )}
      {tree.isLoading ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : nodes.length ? (
        <Tree.DirectoryTree
          treeData={toTree(nodes)}
          selectedKeys={selected ? [selected] : []}
          defaultExpandAll
          onSelect={(keys, info) => {
            const path = String(keys[0] ?? '');
            setSelected(path);
            if (info.node.isLeaf) onOpen(path);
          }}
        />
      ) : (
        <p className="file-tree__empty">{t('tree.empty')}</p>
      )}
      {node && (
        <SelectionActions
          node={node}
          canEdit={canEdit}
          onDownload={() => void downloadFile(projectId, node.path)}
          onRename={() =>
            setNameDialog({
              title: t('tree.rename'),
              initial: node.name,
              onSubmit: (name) =>
                relocate(node.path, joinPath(parentOf(node.path), name), () =>
                  files.rename(projectId, node.path, name),
                ),
            })
          }
          onMove={() => setFolderDialog('move')}
          onDuplicate={() => void copy().catch(() => undefined)}
          onCopyTo={() => setFolderDialog('copy')}
          onDelete={remove}
        />
      )}
      <FileNameDialog dialog={nameDialog} onClose={() => setNameDialog(null)} />
      <MoveDialog
        open={folderDialog !== null}
        title={t(folderDialog === 'copy' ? 'tree.copyTo' : 'tree.move')}
        nodes={nodes}
        onClose={() => setFolderDialog(null)}
        onSubmit={(to) =>
          folderDialog === 'copy'
            ? copy(to)
            : relocate(selected, joinPath(to, selected.split('/').pop() ?? ''), () =>
                files.move(projectId, selected, to),
              )
        }
      />
      <StorageUsage />
    </nav>
  );
}
