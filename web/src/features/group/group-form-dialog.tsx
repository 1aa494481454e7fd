import { PictureOutlined } from '@ant-design/icons';
import { GROUP_LIMITS, IMAGE_TYPES, type TGroupDetail } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Switch, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { groupCalls, groupKeys } from './group-api';
import { refusalMessage } from '../../app/api-client';
import { groupPath } from './group-paths';

interface Values {
  name: string;
  description: string;
  joinReview: boolean;
}

/** Why a chosen cover is refused before it is sent: its type or its size (spec 5: jpg, png, gif, jpeg under 2 MB). */
export function coverProblem(file: File): 'coverType' | 'coverSize' | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(IMAGE_TYPES as readonly string[]).includes(extension)) return 'coverType';
  return file.size > GROUP_LIMITS.coverBytes ? 'coverSize' : null;
}

/**
 * A new group, or the owner's change of one: name (not empty), description, whether joining by code waits for the
 * owner's review, and a cover image. A new group opens once created.
 */
export function GroupFormDialog({ group, onClose }: { group?: TGroupDetail; onClose: () => void }) {
  const { t } = useTranslation('group');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [cover, setCover] = useState<{ file: File; url: string } | null>(null);
  const preview = cover?.url ?? group?.coverUrl ?? null;
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string>();

  // A chosen image's preview address is let go once another is chosen or the dialog closes.
  useEffect(
    () => () => {
      if (cover) URL.revokeObjectURL(cover.url);
    },
    [cover],
  );

  const save = async (values: Values) => {
    setSaving(true);
    setRefusal(undefined);
    try {
      const saved = group ? await groupCalls.update(group.id, values) : await groupCalls.create(values);
      if (cover) await groupCalls.cover(saved.id, cover.file);
      await client.invalidateQueries({ queryKey: groupKeys.all });
      toast.success(t(group ? 'form.saved' : 'form.created', { name: saved.name }));
      onClose();
      if (!group) void navigate(groupPath(saved.id));
    } catch (error) {
      setRefusal(refusalMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={560}
      title={t(group ? 'form.editTitle' : 'form.createTitle')}
      okText={t(group ? 'form.save' : 'form.create')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit' }}
      // The form holds the dialog's buttons, so Enter and the OK button submit it as a form's own button does.
      modalRender={(dialog) => (
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{
            name: group?.name ?? '',
            description: group?.description ?? '',
            joinReview: group?.joinReview ?? false,
          }}
          onFinish={save}
        >
          {dialog}
        </Form>
      )}
    >
      <Form.Item
        name="name"
        label={t('form.name')}
        rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}
      >
        <Input maxLength={GROUP_LIMITS.name} showCount autoComplete="off" />
      </Form.Item>
      <Form.Item name="description" label={t('form.description')}>
        <Input.TextArea maxLength={GROUP_LIMITS.description} showCount rows={3} />
      </Form.Item>
      <Form.Item
        name="joinReview"
        label={t('form.joinReview')}
        extra={t('form.joinReviewHelp')}
        valuePropName="checked"
      >
        <Switch aria-label={t('form.joinReview')} />
      </Form.Item>
      <Form.Item label={t('form.cover')} extra={t('form.coverHelp')}>
        <div className="group-cover-field">
          {preview ? (
            <img src={preview} alt={t('form.coverPreview')} className="group-cover-field__preview" />
          ) : (
            <span className="group-cover-field__preview group-cover-field__preview--empty" aria-hidden="true">
              <PictureOutlined />
            </span>
          )}
          <Upload
            accept={IMAGE_TYPES.map((type) => `.${type}`).join(',')}
            showUploadList={false}
            beforeUpload={(file) => {
              const problem = coverProblem(file);
              if (problem) toast.error(t(`form.${problem}`));
              else setCover({ file, url: URL.createObjectURL(file) });
              return false;
            }}
          >
            <Button>{t(preview ? 'form.coverChange' : 'form.coverChoose')}</Button>
          </Upload>
        </div>
      </Form.Item>
      <FormError message={refusal} />
    </Modal>
  );
}
