import { ClockCircleOutlined } from '@ant-design/icons';
import { GROUP_LIMITS } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { groupCalls, groupKeys, JOIN_CODES } from './group-api';
import { refusalMessage } from '../../app/api-client';
import { groupPath } from './group-paths';

/**
 * Joining a group with the code its owner handed out. Joined: the group opens. A group whose owner reviews
 * newcomers: the dialog says the request waits for the owner, and where its outcome will show.
 */
export function JoinGroupDialog({
  initialCode = '',
  onClose,
  onShowRequests,
}: {
  initialCode?: string;
  onClose: () => void;
  onShowRequests: () => void;
}) {
  const { t } = useTranslation('group');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form] = Form.useForm<{ code: string }>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [pending, setPending] = useState(false);

  const join = async ({ code }: { code: string }) => {
    setBusy(true);
    setRefusal(undefined);
    try {
      const result = await groupCalls.join(code.trim().toUpperCase());
      await client.invalidateQueries({ queryKey: groupKeys.all });
      if (result.state === 'pending') {
        setPending(true);
        return;
      }
      toast.success(t('join.joined'));
      onClose();
      void navigate(groupPath(result.groupId));
    } catch (error) {
      setRefusal(refusalMessage(error, JOIN_CODES));
    } finally {
      setBusy(false);
    }
  };

  if (pending) {
    return (
      <Modal
        open
        title={t('join.title')}
        onCancel={onClose}
        footer={[
          <Button key="requests" onClick={onShowRequests}>
            {t('requests.open')}
          </Button>,
          <Button key="close" kind="primary" onClick={onClose}>
            {t('common.close')}
          </Button>,
        ]}
      >
        <Result
          icon={<ClockCircleOutlined />}
          title={<p className="group-result-title">{t('join.pendingTitle')}</p>}
          subTitle={t('join.pendingBody')}
        />
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={t('join.title')}
      okText={t('join.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit' }}
      // The form holds the dialog's buttons, so Enter and the OK button submit it as a form's own button does.
      modalRender={(dialog) => (
        <Form form={form} layout="vertical" initialValues={{ code: initialCode }} onFinish={join} requiredMark={false}>
          {dialog}
        </Form>
      )}
    >
      <p>{t('join.lead')}</p>
      <Form.Item
        name="code"
        label={t('join.code')}
        rules={[{ required: true, whitespace: true, message: t('join.codeRequired') }]}
        normalize={(value: string) => value.toUpperCase()}
      >
        <Input
          size="large"
          autoComplete="off"
          maxLength={20}
          placeholder={t('join.placeholder', { count: GROUP_LIMITS.inviteCode })}
          className="group-code-input"
        />
      </Form.Item>
      <FormError message={refusal} />
    </Modal>
  );
}
