import { SafetyOutlined } from '@ant-design/icons';
import { UI_SIZES } from '@aiedu/contracts';
import { Modal, QRCode } from 'antd';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';
import { AntdScope } from './antd-scope';
import { APP_CONFIG } from './config';
import './system-notice-dialog.css';

/**
 * The blocking notice (width 640) shown when the request shield refuses a request (HTTP 403 with a
 * text body): what happened, and a QR code to reach the staff. Only the button closes it.
 */
export function SystemNoticeDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AntdScope>
      <Modal
        open
        width={UI_SIZES.noticeDialogWidth}
        title={
          <span className="system-notice__title">
            <SafetyOutlined aria-hidden="true" />
            {t('api.notice.title')}
          </span>
        }
        closable={false}
        keyboard={false}
        mask={{ closable: false }}
        onCancel={onClose}
        footer={
          <Button kind="primary" onClick={onClose}>
            {t('api.notice.ok')}
          </Button>
        }
      >
        <p>{t('api.notice.body')}</p>
        <p>{t('api.notice.contact')}</p>
        <div className="system-notice__qr">
          <QRCode
            value={APP_CONFIG.staffContactUrl}
            type="svg"
            size={160}
            role="img"
            aria-label={t('api.notice.qrLabel')}
          />
        </div>
      </Modal>
    </AntdScope>
  );
}
