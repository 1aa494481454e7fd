import { FileOutlined, FolderOutlined } from '@ant-design/icons';
import type { TDatasetDetail, TDatasetFileEntry } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Empty, Select, Skeleton, Tree, type TreeDataNode } from 'antd';
import { useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../ui/sizes';
import { datasetKeys, fetchFiles, useDatasetFiles } from './dataset-api';
import { FilePreview } from './file-preview';

function EntryTitle({ entry }: { entry: TDatasetFileEntry }) {
  const { t } = useTranslation('dataset');
  return (
    <span className="dataset-files__entry">
      <span className="dataset-files__name">{entry.name}</span>
      <span className="dataset-files__size">
        {entry.kind === 'dir'
          ? t('files.folderSize', { count: entry.childCount, size: formatBytes(entry.size) })
          : formatBytes(entry.size)}
      </span>
    </span>
  );
}

const toNodes = (entries: TDatasetFileEntry[]): TreeDataNode[] =>
  entries.map((entry) => ({
    key: entry.path,
    title: <EntryTitle entry={entry} />,
    icon: entry.kind === 'dir' ? <FolderOutlined aria-hidden="true" /> : <FileOutlined aria-hidden="true" />,
    isLeaf: entry.kind === 'file',
  }));

/** Puts `children` under the node at `key`, wherever it is in the tree. */
function withChildren(nodes: TreeDataNode[], key: string, children: TreeDataNode[]): TreeDataNode[] {
  return nodes.map((node) =>
    node.key === key
      ? { ...node, children }
      : node.children
        ? { ...node, children: withChildren(node.children, key, children) }
        : node,
  );
}

/** One version's files: the top level first, each folder's content when it opens; a file opens its preview. */
function VersionFiles({ dataset, versionId }: { dataset: TDatasetDetail; versionId: string }) {
  const { t } = useTranslation('dataset');
  const client = useQueryClient();
  const top = useDatasetFiles(dataset.id, versionId, '');
  const [loaded, setLoaded] = useState<TreeDataNode[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const version = dataset.versions.find((v) => v.id === versionId);
  if (top.isLoading) return <Skeleton active />;
  const nodes = loaded ?? toNodes(top.data?.entries ?? []);
  if (!nodes.length) return <Empty description={t('files.empty')} />;
  const loadFolder = async (node: { key: Key }) => {
    const dir = String(node.key);
    const level = await client.fetchQuery({
      queryKey: datasetKeys.files(dataset.id, versionId, dir),
      queryFn: () => fetchFiles(dataset.id, versionId, dir),
      staleTime: Infinity,
    });
    setLoaded((current) => withChildren(current ?? nodes, dir, toNodes(level.entries)));
  };
  return (
    <div className="dataset-files__body">
      <nav className="dataset-files__tree" aria-label={t('files.tree')}>
        <Tree
          showIcon
          blockNode
          treeData={nodes}
          loadData={loadFolder}
          selectedKeys={selected ? [selected] : []}
          onSelect={(_keys, { node }) => {
            if (node.isLeaf) setSelected(String(node.key));
          }}
        />
      </nav>
      <div className="dataset-files__preview">
        {selected ? (
          <FilePreview
            key={selected}
            target={{
              datasetId: dataset.id,
              versionId,
              path: selected,
              annotated: Boolean(version?.annotationName),
            }}
          />
        ) : (
          <p className="dataset-files__hint">{t('files.pick')}</p>
        )}
      </div>
    </div>
  );
}

/** The files of a ready version (the current one unless another is chosen), beside the preview of one. */
export function DatasetFiles({ dataset }: { dataset: TDatasetDetail }) {
  const { t } = useTranslation('dataset');
  const ready = dataset.versions.filter((v) => v.state === 'ready');
  const [versionId, setVersionId] = useState(dataset.currentVersion?.id ?? ready[0]?.id ?? null);
  if (!versionId) return <Empty description={t('files.noData')} />;
  return (
    <div className="dataset-files">
      {ready.length > 1 && (
        <Select
          className="dataset-files__version"
          aria-label={t('files.version')}
          value={versionId}
          onChange={setVersionId}
          options={ready.map((v) => ({ value: v.id, label: t('versions.number', { number: v.number }) }))}
        />
      )}
      <VersionFiles key={versionId} dataset={dataset} versionId={versionId} />
    </div>
  );
}
