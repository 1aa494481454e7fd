import { GROUP_LIMITS } from '@aiedu/contracts';
import { Alert, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTabsMore } from '../../ui/named-icons';
import { BatchRowsForm } from './batch-rows-form';
import { BatchXlsx } from './batch-xlsx';
import { GroupShell } from './group-shell';

/** The owner registers accounts that join the group at once: typed row by row, or from a spreadsheet. */
function BatchRegister({ groupId }: { groupId: string }) {
  const { t } = useTranslation('group');
  const tabsMore = useTabsMore();
  return (
    <>
      <Alert
        type="info"
        showIcon
        className="group-batch-rules"
        title={t('batch.rulesTitle', { count: GROUP_LIMITS.batchRows })}
        description={
          <ul>
            <li>{t('batch.ruleUsername')}</li>
            <li>{t('batch.rulePhone')}</li>
            <li>{t('batch.rulePassword')}</li>
            <li>{t('batch.ruleAll')}</li>
          </ul>
        }
      />
      <Tabs
        more={tabsMore}
        items={[
          { key: 'rows', label: t('batch.byRows'), children: <BatchRowsForm groupId={groupId} /> },
          { key: 'xlsx', label: t('batch.byFile'), children: <BatchXlsx groupId={groupId} /> },
        ]}
      />
    </>
  );
}

export function GroupBatchRegisterPage() {
  return <GroupShell part="batch-register">{(group) => <BatchRegister groupId={group.id} />}</GroupShell>;
}
