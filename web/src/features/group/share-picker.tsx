import { ShareAltOutlined } from '@ant-design/icons';
import { Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';

export interface ShareOption {
  value: string;
  label: string;
}

/**
 * A member picks one of their own projects or courses and shares it with the group. Items already shared are left
 * out; `onSearch` asks the server when the caller's items are many (projects), else the list filters itself.
 */
export function SharePicker({
  label,
  options,
  loading,
  emptyText,
  onSearch,
  onShare,
}: {
  label: string;
  options: ShareOption[];
  loading: boolean;
  emptyText: string;
  onSearch?: (keyword: string) => void;
  onShare: (id: string) => Promise<unknown>;
}) {
  const { t } = useTranslation('group');
  const [picked, setPicked] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const share = async () => {
    if (!picked) return;
    setBusy(true);
    try {
      await onShare(picked);
      setPicked(undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space wrap className="group-share">
      <Select
        showSearch={onSearch ? { filterOption: false, onSearch } : { optionFilterProp: 'label' }}
        aria-label={label}
        placeholder={label}
        style={{ width: 320, maxWidth: '100%' }}
        loading={loading}
        value={picked}
        onChange={setPicked}
        options={options}
        notFoundContent={loading ? undefined : emptyText}
      />
      <Button kind="primary" icon={<ShareAltOutlined />} disabled={!picked} loading={busy} onClick={() => void share()}>
        {t('share.submit')}
      </Button>
    </Space>
  );
}
