import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import type { TGroupDetail, TGroupInvitation } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Modal, Space, Switch } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { Button } from '../../ui/button';
import { confirmDanger } from '../admin/confirm';
import { groupCalls, groupKeys, useGroupMutation } from './group-api';
import { joinLink } from './group-paths';
import { GroupShell } from './group-shell';

async function copy(text: string, done: string, failed: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done);
  } catch {
    toast.error(failed);
  }
}

/**
 * The owner's invitation code: large and copyable with a join link beside it, switched on or off, and reset after a
 * confirmation that says the old code stops working at once.
 */
function Invitation({ group, invitation }: { group: TGroupDetail; invitation: TGroupInvitation }) {
  const { t } = useTranslation('group');
  const client = useQueryClient();
  const [modal, modalHost] = Modal.useModal();
  const switchId = useId();
  // The detail carries the invitation: the answer replaces it at once, before every group query is read again.
  const keep = (next: TGroupInvitation) =>
    client.setQueryData<TGroupDetail>(groupKeys.detail(group.id), (g) => (g ? { ...g, invitation: next } : g));
  const toggle = useGroupMutation((enabled: boolean) => groupCalls.setInvitation(group.id, enabled));
  const reset = useGroupMutation(() => groupCalls.resetInvitation(group.id));
  const link = joinLink(invitation.code);
  const confirmReset = () =>
    confirmDanger(modal, {
      title: t('invitation.resetTitle'),
      content: t('invitation.resetBody', { code: invitation.code }),
      okText: t('invitation.reset'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const next = await reset.mutateAsync(undefined);
        keep(next);
        toast.success(t('invitation.resetDone', { code: next.code }));
      },
    });
  return (
    <Space orientation="vertical" size="large" className="group-invitation">
      {modalHost}
      <Card>
        <p className="group-muted">{t('invitation.codeLabel')}</p>
        <p className={`group-code${invitation.enabled ? '' : ' group-code--off'}`} data-testid="group-code">
          {invitation.code}
        </p>
        <Space wrap>
          <Button
            kind="primary"
            icon={<CopyOutlined />}
            disabled={!invitation.enabled}
            onClick={() => void copy(invitation.code, t('invitation.copied'), t('invitation.copyFailed'))}
          >
            {t('invitation.copyCode')}
          </Button>
          <Button
            icon={<CopyOutlined />}
            disabled={!invitation.enabled}
            onClick={() => void copy(link, t('invitation.linkCopied'), t('invitation.copyFailed'))}
          >
            {t('invitation.copyLink')}
          </Button>
        </Space>
        <p className="group-muted group-link">{link}</p>
      </Card>
      <div className="group-switch">
        <Switch
          id={switchId}
          aria-label={t('invitation.enabled')}
          checked={invitation.enabled}
          loading={toggle.isPending}
          onChange={(enabled) =>
            toggle.mutate(enabled, {
              onSuccess: (next) => {
                keep(next);
                toast.success(t(next.enabled ? 'invitation.enabledDone' : 'invitation.disabledDone'));
              },
            })
          }
        />
        <label htmlFor={switchId}>{t('invitation.enabled')}</label>
      </div>
      {!invitation.enabled && <Alert type="warning" showIcon title={t('invitation.disabledHint')} />}
      <p className="group-muted">{t(group.joinReview ? 'invitation.reviewed' : 'invitation.direct')}</p>
      <Button danger icon={<ReloadOutlined />} loading={reset.isPending} onClick={confirmReset}>
        {t('invitation.reset')}
      </Button>
    </Space>
  );
}

export function GroupInvitationPage() {
  return (
    <GroupShell part="invitation">
      {(group) => (group.invitation ? <Invitation group={group} invitation={group.invitation} /> : null)}
    </GroupShell>
  );
}
