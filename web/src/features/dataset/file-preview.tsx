import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import type { TAnnotationBox, TDatasetPreview } from '@aiedu/contracts';
import { Alert, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { saveFile } from '../../ui/save-file';
import { formatBytes } from '../../ui/sizes';
import { Table } from '../../ui/table';
import { fileBlob, useFilePreview, useImageBoxes } from './dataset-api';

export interface PreviewTarget {
  datasetId: string;
  versionId: string;
  path: string;
  /** The version has an annotation file: images show their boxes. */
  annotated: boolean;
}

const BOX_COLOURS = ['#d4380d', '#096dd9', '#389e0d', '#c41d7f', '#d48806', '#531dab'];

/** Boxes in the image's own pixels, drawn over it at whatever size it is shown. */
function Boxes({ boxes, width, height }: { boxes: TAnnotationBox[]; width: number; height: number }) {
  const categories = [...new Set(boxes.map((b) => b.category))];
  const colour = (category: string) => BOX_COLOURS[categories.indexOf(category) % BOX_COLOURS.length];
  return (
    <svg
      className="file-preview__boxes"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      aria-hidden="true"
    >
      {boxes.map((b, i) => (
        <g key={i}>
          <rect
            x={b.x}
            y={b.y}
            width={b.w}
            height={b.h}
            fill="none"
            stroke={colour(b.category)}
            strokeWidth={Math.max(2, width / 200)}
          />
          <text
            x={b.x + 2}
            y={b.y + Math.max(12, width / 40)}
            fill={colour(b.category)}
            fontSize={Math.max(12, width / 40)}
          >
            {b.category}
          </text>
        </g>
      ))}
    </svg>
  );
}

/**
 * An image: its thumbnail, or with an annotation the image itself, since the boxes are in its own pixels. The boxes'
 * categories are listed in words below it too.
 */
function ImagePreview({ target }: { target: PreviewTarget }) {
  const { t } = useTranslation('dataset');
  const { datasetId, versionId, path, annotated } = target;
  const [url, setUrl] = useState<string | null>(null);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const boxes = useImageBoxes(datasetId, versionId, path, annotated).data;
  useEffect(() => {
    let made: string | null = null;
    let live = true;
    fileBlob(datasetId, versionId, path, !annotated).then(
      (blob) => live && setUrl((made = URL.createObjectURL(blob))),
      () => undefined,
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [datasetId, versionId, path, annotated]);
  if (!url) return <Skeleton.Image active />;
  const width = boxes?.width ?? natural?.width;
  const height = boxes?.height ?? natural?.height;
  const counts = new Map<string, number>();
  for (const b of boxes?.boxes ?? []) counts.set(b.category, (counts.get(b.category) ?? 0) + 1);
  return (
    <figure className="file-preview__figure">
      <div className="file-preview__image">
        <img
          src={url}
          alt={path}
          onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
        />
        {boxes && boxes.boxes.length > 0 && width && height && (
          <Boxes boxes={boxes.boxes} width={width} height={height} />
        )}
      </div>
      {boxes && (
        <figcaption>
          {boxes.boxes.length
            ? t('preview.boxes', {
                count: boxes.boxes.length,
                categories: [...counts].map(([name, n]) => `${name} (${n})`).join(', '),
              })
            : t('preview.noBoxes')}
        </figcaption>
      )}
    </figure>
  );
}

/** The head of a CSV or TSV file as a table: its header and first rows. */
export function TablePreview({ preview }: { preview: Extract<TDatasetPreview, { kind: 'table' }> }) {
  const { t } = useTranslation('dataset');
  const columns = preview.header.map((title, index) => ({ title, dataIndex: index, key: index }));
  const rows = preview.rows.map((row, key) => ({ key, ...row }));
  return (
    <>
      <Table
        className="file-preview__table"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        aria-label={t('preview.tableLabel', { name: preview.path })}
      />
      <p className="file-preview__note">
        {t(preview.truncated ? 'preview.firstRows' : 'preview.allRows', { count: preview.rows.length })}
      </p>
    </>
  );
}

function PreviewBody({ target, preview }: { target: PreviewTarget; preview: TDatasetPreview }) {
  const { t } = useTranslation('dataset');
  if (preview.kind === 'image') return <ImagePreview target={target} />;
  if (preview.kind === 'table') return <TablePreview preview={preview} />;
  if (preview.kind === 'text')
    return (
      <>
        <pre className="file-preview__text" tabIndex={0} aria-label={preview.path}>
          {preview.text}
        </pre>
        {preview.truncated && <p className="file-preview__note">{t('preview.textCut')}</p>}
      </>
    );
  return <Alert type="info" showIcon title={t('preview.none')} />;
}

/**
 * One file of a dataset: what it shows, its size, its path (to copy into code) and its download. In a project the
 * dataset's files are under the folder the project's datasets panel names.
 */
export function FilePreview({ target }: { target: PreviewTarget }) {
  const { t } = useTranslation('dataset');
  const preview = useFilePreview(target.datasetId, target.versionId, target.path);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(target.path);
      toast.success(t('preview.copied'));
    } catch {
      toast.error(t('preview.copyFailed'));
    }
  };
  const download = async () =>
    saveFile(await fileBlob(target.datasetId, target.versionId, target.path), target.path.split('/').pop()!);
  return (
    <section className="file-preview" aria-labelledby="file-preview-title">
      <header className="file-preview__header">
        <h3 id="file-preview-title" className="file-preview__title">
          {target.path.split('/').pop()}
        </h3>
        <span>{preview.data ? formatBytes(preview.data.size) : null}</span>
      </header>
      <div className="file-preview__path">
        <code>{target.path}</code>
        <Button size="small" icon={<CopyOutlined />} onClick={() => void copy()}>
          {t('preview.copyPath')}
        </Button>
        <Button size="small" icon={<DownloadOutlined />} onClick={() => void download()}>
          {t('preview.download')}
        </Button>
      </div>
      <p className="file-preview__note">{t('preview.pathHint')}</p>
      {preview.isLoading ? (
        <Skeleton active />
      ) : preview.data ? (
        <PreviewBody target={target} preview={preview.data} />
      ) : (
        <Alert type="warning" showIcon title={t('preview.failed')} />
      )}
    </section>
  );
}
