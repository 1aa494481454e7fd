import { LIMITS, TIMINGS } from '@aiedu/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { formErrorMessage, sendCode, signInErrorMessage, type CodeScene } from './sign-api';
import { useCountdown } from './use-countdown';

export interface SendCodeButtonProps {
  /** The phone number or email the code goes to. */
  target: string;
  scene: CodeScene;
  custcode?: string;
  /**
   * Whether the target looks complete. Spec section 5: by default once the contact field holds more
   * than 10 characters (a phone number has 11).
   */
  ready?: boolean;
  /** Checks the target field first; resolves false to send nothing. */
  beforeSend?: () => Promise<boolean>;
  /** A refusal the form shows next to the target field (taken, not registered, invalid). */
  onError: (message: string) => void;
}

/** "Send code", then a 60-second countdown (spec sections 4 and 9) before another code can be sent. */
export function SendCodeButton({ target, scene, custcode, ready, beforeSend, onError }: SendCodeButtonProps) {
  const { t } = useTranslation('sign');
  const { seconds, start } = useCountdown();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const complete = ready ?? target.length > LIMITS.contact - 1;

  async function send() {
    if (beforeSend && !(await beforeSend())) return;
    setSending(true);
    try {
      await sendCode({ scene, target, custcode });
      setSent(true);
      start(TIMINGS.codeCountdownSeconds);
    } catch (error) {
      // Binding a contact is done signed in: an ended session is the API client's to announce, not the form's.
      const message = scene === 'BIND' ? formErrorMessage(error) : signInErrorMessage(error);
      if (message) onError(message);
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      <Button
        size="large"
        className="send-code-button"
        disabled={!complete || seconds > 0 || sending}
        loading={sending}
        onClick={() => void send()}
      >
        {seconds > 0 ? t('code.resendIn', { seconds }) : t(sent ? 'code.resend' : 'code.send')}
      </Button>
      <span className="visually-hidden" role="status">
        {seconds > 0 ? t('code.sent') : ''}
      </span>
    </>
  );
}
