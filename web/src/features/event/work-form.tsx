import { EVENT_API, EVENT_LIMITS, UI_SIZES, type TWork } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Drawer, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { formatBytes } from '../../ui/sizes';
import { ImageUpload } from './image-upload';
import { Refusal } from './review-kit';
import { VideoUpload, WorkVideo } from './work-video';
import { useMyProjects, useWorkMutation, workCalls } from './works-api';

interface WorkValues {
  name: string;
  description: string;
  tags: string[];
  link: string;
  projectId: string | null;
}

const valuesOf = (work: TWork | null): WorkValues => ({
  name: work?.name ?? '',
  description: work?.description ?? '',
  tags: work?.tags ?? [],
  link: work?.link ?? '',
  projectId: work?.projectId ?? null,
});

/** The cover: JPG or PNG up to 10 MB, uploaded as soon as it is picked, and shown. */
function CoverField({
  cover,
  onChange,
}: {
  cover: { key: string; url: string | null } | null;
  onChange: (c: { key: string; url: string }) => void;
}) {
  const { t } = useTranslation('eventReview');
  const size = formatBytes(EVENT_LIMITS.imageBytes);
  return (
    <section className="review-file-pick" aria-label={t('form.cover')}>
      {cover?.url && <img className="review-cover" src={cover.url} alt={t('form.coverPreview')} />}
      <ImageUpload
        hasImage={Boolean(cover)}
        maxBytes={EVENT_LIMITS.imageBytes}
        upload={workCalls.uploadCover}
        onUploaded={onChange}
        texts={{
          pick: t('form.coverPick'),
          change: t('form.coverChange'),
          hint: t('form.coverHint', { size }),
          wrongType: t('form.coverNotImage'),
          tooLarge: t('form.tooLarge', { size }),
          failed: t('form.uploadFailed'),
        }}
      />
    </section>
  );
}

/**
 * A draft's form in a drawer: name, description, tags, link, cover, project; the video once the draft exists (its
 * upload belongs to the draft).
 */
export function WorkForm({ eventId, work, onClose }: { eventId: string; work: TWork | null; onClose: () => void }) {
  const { t } = useTranslation('eventReview');
  const [form] = Form.useForm<WorkValues>();
  const [cover, setCover] = useState<{ key: string; url: string | null } | null>(
    work?.coverKey ? { key: work.coverKey, url: work.coverUrl } : null,
  );
  const [saved, setSaved] = useState<TWork | null>(work);
  const projects = useMyProjects(true);
  const client = useQueryClient();
  const [modal, host] = Modal.useModal();
  // Changed since the last save: closing then asks first.
  const [dirty, setDirty] = useState(false);
  const close = () => {
    if (!dirty) return onClose();
    void modal.confirm({
      width: UI_SIZES.confirmDialogWidth,
      title: t('form.leaveTitle'),
      content: t('form.leaveBody'),
      okText: t('form.leave'),
      cancelText: t('form.stay'),
      onOk: onClose,
    });
  };
  const save = useWorkMutation((values: WorkValues) => {
    const body = {
      name: values.name.trim(),
      description: values.description,
      tags: values.tags.map((tag) => tag.trim()).filter(Boolean),
      link: values.link.trim(),
      coverKey: cover?.key ?? null,
      videoKey: saved?.videoKey ?? null,
      projectId: values.projectId ?? null,
    };
    return saved ? workCalls.update({ ...body, id: saved.id }) : workCalls.create({ ...body, eventId });
  });
  const finish = async (values: WorkValues) => {
    try {
      const result = await save.mutateAsync(values);
      toast.success(t('form.saved', { name: result.name }));
      if (saved) onClose();
      else {
        setSaved(result);
        form.resetFields();
        form.setFieldsValue(valuesOf(result));
      }
      setDirty(false);
    } catch {
      // Shown by <Refusal> below.
    }
  };
  return (
    <Drawer
      open
      size={560}
      title={saved ? t('form.editTitle', { name: saved.name }) : t('form.newTitle')}
      onClose={close}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={close}>{t('common.close')}</Button>
        </Space>
      }
    >
      <Form<WorkValues>
        form={form}
        layout="vertical"
        initialValues={valuesOf(work)}
        onFinish={(values) => void finish(values)}
        onValuesChange={() => setDirty(true)}
      >
        <Form.Item
          name="name"
          label={t('form.name')}
          rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}
        >
          <Input maxLength={EVENT_LIMITS.workName} showCount />
        </Form.Item>
        <Form.Item name="description" label={t('form.description')}>
          <Input.TextArea rows={4} maxLength={EVENT_LIMITS.workDescription} showCount />
        </Form.Item>
        <Form.Item name="tags" label={t('form.tags')} extra={t('form.tagsHint', { max: EVENT_LIMITS.tags })}>
          <Select mode="tags" maxCount={EVENT_LIMITS.tags} aria-label={t('form.tags')} open={false} />
        </Form.Item>
        <Form.Item name="link" label={t('form.link')} rules={[{ type: 'url', message: t('form.linkInvalid') }]}>
          <Input maxLength={EVENT_LIMITS.link} inputMode="url" />
        </Form.Item>
        <Form.Item name="projectId" label={t('form.project')} extra={t('form.projectHint')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            loading={projects.isLoading}
            aria-label={t('form.project')}
            options={(projects.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
            notFoundContent={t('form.noProjects')}
          />
        </Form.Item>
        <CoverField
          cover={cover}
          onChange={(c) => {
            setCover(c);
            setDirty(true);
          }}
        />
        <Button kind="primary" loading={save.isPending} htmlType="submit">
          {t('form.save')}
        </Button>
      </Form>
      <section className="review-section" aria-label={t('form.video')}>
        {saved ? (
          <>
            {saved.hasVideo && <WorkVideo workId={saved.id} title={saved.name} videoUrl={saved.videoUrl} />}
            <VideoUpload
              workId={saved.id}
              onDone={() => {
                setSaved({ ...saved, hasVideo: true });
                void client.invalidateQueries({ queryKey: [EVENT_API.works] });
              }}
            />
          </>
        ) : (
          <p className="review-muted">{t('form.videoAfterSave')}</p>
        )}
      </section>
      <Refusal error={save.error} />
      {host}
    </Drawer>
  );
}
