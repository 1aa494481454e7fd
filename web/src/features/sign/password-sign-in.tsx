import { ERRORS, type TLoginResponse } from '@aiedu/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../../app/api-client';
import { completeLogin } from './complete-login';
import { isCaptchaRequired, loginWithPassword, signInErrorMessage, type PasswordLoginInput } from './sign-api';
import { SliderCaptcha } from './slider-captcha';

export interface PasswordSignIn {
  /** Signs in, through the slider puzzle first when the server asks for it (spec section 4). */
  start(input: PasswordLoginInput): Promise<void>;
  /** Waiting for the puzzle. */
  pending: boolean;
  /** The puzzle, while it is waiting for it. */
  puzzle: ReactNode;
}

/**
 * A sign-in with a password, as the sign-in form and sign-up (which signs in with the new account) both do it:
 * the server is asked whether this account must pass the slider puzzle; if so the puzzle shows, and a passed puzzle
 * retries the sign-in with its id. A refusal goes to `onError` with the form's message.
 */
export function usePasswordSignIn(options: {
  onSignedIn: (login: TLoginResponse) => void;
  onError: (message: string | undefined) => void;
  setBusy: (busy: boolean) => void;
}): PasswordSignIn {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PasswordLoginInput | null>(null);
  // Each wait for the puzzle gets a puzzle of its own: a passed one is spent, even when the sign-in then failed.
  const [attempt, setAttempt] = useState(0);

  function waitForPuzzle(input: PasswordLoginInput) {
    setPending(input);
    setAttempt((count) => count + 1);
  }

  async function signIn(input: PasswordLoginInput) {
    try {
      const login = await loginWithPassword(input);
      await completeLogin(login, input.custcode, queryClient);
      options.onSignedIn(login);
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === ERRORS.CAPTCHA_REQUIRED.code) {
        // The account crossed the failure limit meanwhile: the puzzle first (the API client showed why).
        waitForPuzzle({ ...input, captchaId: undefined });
        return;
      }
      setPending(null);
      options.onError(signInErrorMessage(failure));
    }
  }

  async function start(input: PasswordLoginInput) {
    if (await isCaptchaRequired(input.custcode, input.username)) waitForPuzzle(input);
    else await signIn(input);
  }

  async function pass(captchaId: string) {
    if (!pending) return;
    options.setBusy(true);
    await signIn({ ...pending, captchaId });
    options.setBusy(false);
  }

  const puzzle = pending && (
    <SliderCaptcha key={attempt} onPass={(id) => void pass(id)} onCancel={() => setPending(null)} />
  );
  return { start, pending: pending !== null, puzzle };
}
