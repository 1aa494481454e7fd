import { CloudUploadOutlined, DeleteOutlined, EditOutlined, SendOutlined, UserOutlined } from '@ant-design/icons';
import { UI_SIZES, type TDatasetDetail } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Modal, Skeleton, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { refusalMessage } from '../../app/api-client';
import { toast } from '../../app/feedback';
import { SignInRequired } from '../../app/sign-in-required';
import { Button } from '../../ui/button';
import { LinkButton } from '../../ui/link-button';
import { datasetKeys, deleteDataset, publishDataset, RULE_CODES, useDataset } from './dataset-api';
import { DatasetError } from './dataset-error';
import { DatasetFiles } from './dataset-files';
import { DatasetMarkdown } from './dataset-markdown';
import { AccessBadge, DATASET_PATHS, PublishedBadge } from './dataset-labels';
import { VersionList } from './version-list';
import '../course/course.css';
import './dataset.css';

/**
 * A refusal of the rules (published, public, not ready) as a toast in the server's words; the API client already
 * showed every other refusal.
 */
const showRefusal = (error: unknown) => {
  const message = refusalMessage(error, RULE_CODES);
  if (message) toast.error(message);
};

/**
 * The owner's actions, each offered with why when the rules forbid it: edit (until published), upload a new
 * version (always), publish (once a version is ready; final), delete (never once published or public).
 */
function OwnerActions({ dataset }: { dataset: TDatasetDetail }) {
  const { t } = useTranslation('dataset');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [modal, host] = Modal.useModal();
  const hasReady = dataset.currentVersion !== null;
  const deleteBlocked = dataset.published
    ? t('rules.published')
    : dataset.access === 'public'
      ? t('rules.public')
      : null;

  const publish = () =>
    modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('detail.publishTitle', { name: dataset.name }),
      content: t('detail.publishBody'),
      okText: t('detail.publish'),
      cancelText: t('detail.cancel'),
      onOk: async () => {
        try {
          client.setQueryData(datasetKeys.detail(dataset.id), await publishDataset(dataset.id));
          toast.success(t('detail.published'));
        } catch (error) {
          showRefusal(error);
        }
        void client.invalidateQueries({ queryKey: datasetKeys.all });
      },
    });
  const remove = () =>
    modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('detail.deleteTitle', { name: dataset.name }),
      content: t('detail.deleteBody'),
      okText: t('detail.delete'),
      okButtonProps: { danger: true },
      cancelText: t('detail.cancel'),
      onOk: async () => {
        try {
          await deleteDataset(dataset.id);
          toast.success(t('detail.deleted'));
          client.removeQueries({ queryKey: datasetKeys.detail(dataset.id) });
          void client.invalidateQueries({ queryKey: datasetKeys.all });
          void navigate(DATASET_PATHS.list);
        } catch (error) {
          showRefusal(error);
        }
      },
    });

  return (
    <div className="dataset-detail__actions">
      {host}
      {dataset.canEdit && (
        <LinkButton icon={<EditOutlined />} to={DATASET_PATHS.edit(dataset.id)}>
          {t('detail.edit')}
        </LinkButton>
      )}
      <LinkButton
        kind={hasReady ? 'secondary' : 'primary'}
        icon={<CloudUploadOutlined />}
        to={`${DATASET_PATHS.edit(dataset.id)}#data`}
      >
        {t(hasReady ? 'detail.newVersion' : 'detail.uploadData')}
      </LinkButton>
      {!dataset.published && (
        <Tooltip title={hasReady ? undefined : t('detail.publishNeedsData')}>
          <Button kind="primary" icon={<SendOutlined />} disabled={!hasReady} onClick={publish}>
            {t('detail.publish')}
          </Button>
        </Tooltip>
      )}
      <Tooltip title={deleteBlocked}>
        <Button danger icon={<DeleteOutlined />} disabled={deleteBlocked !== null} onClick={remove}>
          {t('detail.delete')}
        </Button>
      </Tooltip>
      {deleteBlocked && <p className="dataset-detail__why">{deleteBlocked}</p>}
    </div>
  );
}

function Detail({ dataset }: { dataset: TDatasetDetail }) {
  const { t } = useTranslation('dataset');
  return (
    <div className="page dataset-detail">
      <header className="dataset-detail__header">
        <div className="dataset-detail__title">
          <h1>{dataset.name}</h1>
          <Space wrap size={4}>
            <PublishedBadge published={dataset.published} />
            <AccessBadge dataset={dataset} />
            {dataset.courseTag && <Tag color="purple">{t('detail.course', { name: dataset.courseTag })}</Tag>}
            {dataset.tags.map((tag) => (
              <Tag key={tag} color="blue">
                {tag}
              </Tag>
            ))}
          </Space>
          <p className="dataset-detail__owner">
            <UserOutlined aria-hidden="true" /> {t('list.by', { name: dataset.ownerName })}
          </p>
        </div>
        {dataset.isOwner && <OwnerActions dataset={dataset} />}
      </header>
      {dataset.description && (
        <section className="dataset-detail__section" aria-labelledby="dataset-description-title">
          <h2 id="dataset-description-title">{t('detail.description')}</h2>
          <DatasetMarkdown source={dataset.description} />
        </section>
      )}
      <section className="dataset-detail__section" aria-labelledby="dataset-files-title">
        <h2 id="dataset-files-title">{t('files.title')}</h2>
        <DatasetFiles dataset={dataset} />
      </section>
      {dataset.explanation && (
        <section className="dataset-detail__section" aria-labelledby="dataset-explanation-title">
          <h2 id="dataset-explanation-title">{t('detail.explanation')}</h2>
          <DatasetMarkdown source={dataset.explanation} />
        </section>
      )}
      {dataset.annotationCategories.length > 0 && (
        <section className="dataset-detail__section" aria-labelledby="dataset-categories-title">
          <h2 id="dataset-categories-title">{t('detail.categories')}</h2>
          <Space wrap size={4}>
            {dataset.annotationCategories.map((c) => (
              <Tag key={c}>{c}</Tag>
            ))}
          </Space>
        </section>
      )}
      <section className="dataset-detail__section" aria-labelledby="dataset-versions-title">
        <h2 id="dataset-versions-title">{t('versions.title')}</h2>
        <VersionList versions={dataset.versions} currentId={dataset.currentVersion?.id ?? null} />
      </section>
    </div>
  );
}

/** A dataset's page: what it is, who may see it, its versions and its files with previews; the owner's actions. */
export function DatasetDetailPage() {
  const { t } = useTranslation('dataset');
  const { datasetId } = useParams();
  const detail = useDataset(datasetId);
  return (
    <SignInRequired title={t('title')}>
      {detail.isLoading ? (
        <div className="page">
          <Skeleton active />
        </div>
      ) : detail.data ? (
        <Detail dataset={detail.data} />
      ) : (
        <div className="page">
          <DatasetError error={detail.error} />
        </div>
      )}
    </SignInRequired>
  );
}
