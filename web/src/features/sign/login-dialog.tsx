import { UI_SIZES, type TLoginResponse } from '@aiedu/contracts';
import { Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { browser } from '../../app/browser';
import type { LoginDialogOptions, SignStep } from '../../app/sign-dialogs';
import { safeReturnPath } from './return-path';
import { SignPanel } from './sign-panel';

/**
 * The login dialog (spec section 2): an overlay 512 px wide over the current page. After signing
 * in it goes to `from` (the option, else the page's `?from=`) or simply closes; after a password
 * reset it reloads the page.
 */
export function LoginDialog({ options, onClose }: { options: LoginDialogOptions; onClose: () => void }) {
  const { t } = useTranslation('sign');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [step, setStep] = useState<SignStep>(options.step ?? 'login');
  const from = safeReturnPath(options.from ?? params.get('from'));

  function signedIn(_login: TLoginResponse) {
    onClose();
    if (from) void navigate(from);
  }

  return (
    <Modal
      open
      width={UI_SIZES.loginDialogWidth}
      title={t(`dialog.${step}`)}
      footer={null}
      onCancel={onClose}
      centered
      className="login-dialog"
      closable={{ 'aria-label': t('dialog.close') }}
    >
      <SignPanel step={step} onStepChange={setStep} onSignedIn={signedIn} onResetDone={browser.reload} />
    </Modal>
  );
}
