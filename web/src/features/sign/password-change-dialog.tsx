import { API, UI_SIZES } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Modal } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { browser } from '../../app/browser';
import { PATHS } from '../../app/paths';
import { clearSession, saveTokens } from '../../app/session';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';
import { fetchMissingGradeInfo } from './complete-login';
import { NewPasswordFields } from './new-password-fields';
import { formErrorMessage, replaceDefaultPassword } from './sign-api';
import './sign.css';

interface Values {
  password?: string;
  confirm?: string;
}

/**
 * The forced password change: an administrator set this password, so the server refuses
 * everything else (1118) until the user picks their own. It cannot be dismissed; signing out is
 * the only other way.
 */
export function PasswordChangeDialog({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('sign');
  const queryClient = useQueryClient();
  const formName = `password-change${useId()}`;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(values: Values) {
    setError(undefined);
    setBusy(true);
    try {
      const pair = await replaceDefaultPassword(values.password ?? '');
      saveTokens(pair.token, pair.refreshToken);
      // What failed while the change was pending loads again, the grade information of the sign-in with it.
      await Promise.all([queryClient.invalidateQueries(), fetchMissingGradeInfo()]);
      onDone();
    } catch (failure) {
      setError(formErrorMessage(failure));
      setBusy(false);
    }
  }

  function logOut() {
    // Signed out here whatever the server answers (it may already have ended the sign-in).
    void api
      .post(API.authLogout, undefined, { quiet: true })
      .catch(() => undefined)
      .finally(() => {
        clearSession();
        browser.assign(PATHS.home);
      });
  }

  return (
    <Modal
      open
      width={UI_SIZES.loginDialogWidth}
      title={t('forcedChange.title')}
      footer={null}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      centered
    >
      <p>{t('forcedChange.body')}</p>
      <Form name={formName} layout="vertical" requiredMark={false} onFinish={(v: Values) => void submit(v)}>
        <NewPasswordFields />
        <FormError message={error} />
        <div className="sign-panel__actions">
          <Button kind="secondary" size="large" onClick={logOut}>
            {t('forcedChange.logout')}
          </Button>
          <Button kind="primary" size="large" htmlType="submit" loading={busy}>
            {t('forcedChange.submit')}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
