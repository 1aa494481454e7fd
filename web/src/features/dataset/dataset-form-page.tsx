import { ArrowLeftOutlined } from '@ant-design/icons';
import type { TDatasetDetail } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Skeleton } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { refusalMessage } from '../../app/api-client';
import { toast } from '../../app/feedback';
import { SignInRequired } from '../../app/sign-in-required';
import { Button } from '../../ui/button';
import { useLeaveGuard } from '../../ui/use-leave-guard';
import { FormError } from '../../ui/form-error';
import { LinkButton } from '../../ui/link-button';
import { AnnotationUpload } from './annotation-upload';
import { createDataset, datasetKeys, RULE_CODES, updateDataset, useDataset } from './dataset-api';
import { DatasetError } from './dataset-error';
import { DatasetFormFields, type DatasetFormValues } from './dataset-form-fields';
import { DATASET_PATHS } from './dataset-labels';
import { VersionList } from './version-list';
import { ZipUpload } from './zip-upload';
import './dataset.css';

/** The form's first values: the dataset's, or a new one's (shared with `groupId` when it comes from a group's page). */
const valuesOf = (d: TDatasetDetail | undefined, groupId: string | null): DatasetFormValues => ({
  name: d?.name ?? '',
  description: d?.description ?? '',
  explanation: d?.explanation ?? '',
  tags: d?.tags ?? [],
  access: d?.access ?? (groupId ? 'group' : 'private'),
  groupId: d?.groupId ?? groupId,
  courseTag: d?.courseTag || null,
  annotationCategories: d?.annotationCategories ?? [],
});

function DatasetForm({ dataset }: { dataset?: TDatasetDetail }) {
  const { t } = useTranslation('dataset');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const client = useQueryClient();
  const [form] = Form.useForm<DatasetFormValues>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const { host: leaveHost, setDirty } = useLeaveGuard({
    title: t('form.leaveTitle'),
    body: t('form.leaveBody'),
    leave: t('form.leave'),
    stay: t('form.stay'),
  });
  const locked = Boolean(dataset?.published);
  const refresh = useCallback(() => {
    if (dataset) void client.invalidateQueries({ queryKey: datasetKeys.detail(dataset.id) });
    void client.invalidateQueries({ queryKey: datasetKeys.all });
  }, [client, dataset]);

  const submit = async (values: DatasetFormValues) => {
    setBusy(true);
    setRefusal(undefined);
    const body = {
      ...values,
      groupId: values.access === 'group' ? values.groupId : null,
      courseTag: values.courseTag ?? '',
    };
    try {
      if (dataset) {
        await updateDataset(dataset.id, body);
        setDirty(false);
        toast.success(t('form.saved'));
        refresh();
      } else {
        const created = await createDataset(body);
        setDirty(false);
        toast.success(t('form.created'));
        // The next step is its data: the edit page holds the upload.
        void navigate(DATASET_PATHS.edit(created.id), { replace: true });
      }
    } catch (error) {
      // Refusals the API client did not already show as a toast: a bad field, or a rule of datasets.
      setRefusal(refusalMessage(error, RULE_CODES));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {leaveHost}
      <section className="dataset-form__section" aria-labelledby="dataset-form-about">
        <h2 id="dataset-form-about">{t('form.about')}</h2>
        {locked && <Alert type="warning" showIcon title={t('form.publishedLocked')} />}
        <Form<DatasetFormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          disabled={locked}
          initialValues={valuesOf(dataset, searchParams.get('groupId'))}
          onValuesChange={() => setDirty(true)}
          onFinish={(values) => void submit(values)}
        >
          <DatasetFormFields saved={dataset} />
          <FormError message={refusal} />
          {!locked && (
            <Button kind="primary" size="large" htmlType="submit" loading={busy}>
              {t(dataset ? 'form.save' : 'form.create')}
            </Button>
          )}
        </Form>
      </section>
      {dataset ? (
        <>
          <section id="data" className="dataset-form__section" aria-labelledby="dataset-form-data">
            <h2 id="dataset-form-data">{t('form.data')}</h2>
            <p>{t('form.dataLead')}</p>
            <VersionList versions={dataset.versions} currentId={dataset.currentVersion?.id ?? null} />
            <ZipUpload datasetId={dataset.id} onSettled={refresh} />
          </section>
          <section className="dataset-form__section" aria-labelledby="dataset-form-annotation">
            <h2 id="dataset-form-annotation">{t('form.annotation')}</h2>
            <AnnotationUpload
              datasetId={dataset.id}
              version={dataset.versions.find((v) => v.id === dataset.currentVersion?.id)}
              onDone={refresh}
            />
          </section>
        </>
      ) : (
        <p className="dataset-form__next">{t('form.dataAfterCreate')}</p>
      )}
    </>
  );
}

/** The rules a dataset's owner meets later, said before they choose (spec 4). */
function Rules() {
  const { t } = useTranslation('dataset');
  return (
    <Alert
      type="info"
      showIcon
      title={t('rules.title')}
      description={
        <ul className="dataset-rules">
          <li>{t('rules.published')}</li>
          <li>{t('rules.public')}</li>
          <li>{t('rules.group')}</li>
        </ul>
      }
    />
  );
}

function EditForm({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation('dataset');
  const detail = useDataset(datasetId);
  if (detail.isLoading) return <Skeleton active />;
  if (!detail.data) return <DatasetError error={detail.error} />;
  if (!detail.data.isOwner) return <DatasetError error={null} reason={t('form.ownerOnly')} />;
  return <DatasetForm key={detail.data.id} dataset={detail.data} />;
}

/** A new dataset, or the owner's own: its details, its data (zip versions) and its annotation file. */
export function DatasetFormPage() {
  const { t } = useTranslation('dataset');
  const { datasetId } = useParams();
  const title = t(datasetId ? 'form.editTitle' : 'form.newTitle');
  return (
    <SignInRequired title={title}>
      <div className="page dataset-form">
        <header className="dataset-form__header">
          <LinkButton
            kind="ghost"
            icon={<ArrowLeftOutlined />}
            to={datasetId ? DATASET_PATHS.detail(datasetId) : DATASET_PATHS.list}
          >
            {t(datasetId ? 'form.backToDataset' : 'form.backToList')}
          </LinkButton>
          <h1>{title}</h1>
        </header>
        <Rules />
        {datasetId ? <EditForm datasetId={datasetId} /> : <DatasetForm />}
      </div>
    </SignInRequired>
  );
}
