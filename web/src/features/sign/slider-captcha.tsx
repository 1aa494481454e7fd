import { ArrowRightOutlined, ReloadOutlined } from '@ant-design/icons';
import { API, CAPTCHA_TRACE, LIMITS, type TTracePoint } from '@aiedu/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Skeleton } from 'antd';
import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { checkCaptcha, getCaptcha, signInErrorMessage } from './sign-api';

/** Numbers the puzzles shown, so that each shown puzzle loads a puzzle of its own (see `instance` below). */
let puzzlesShown = 0;

/** The handle's width: a 48 px target; the track is the slider range plus the handle. */
const HANDLE_PX = 48;

export function clampSlider(x: number): number {
  return Math.min(LIMITS.sliderMax, Math.max(LIMITS.sliderMin, Math.round(x)));
}

const KEY_STEPS: Record<string, (x: number, big: boolean) => number> = {
  ArrowRight: (x, big) => x + (big ? 10 : 1),
  ArrowUp: (x, big) => x + (big ? 10 : 1),
  ArrowLeft: (x, big) => x - (big ? 10 : 1),
  ArrowDown: (x, big) => x - (big ? 10 : 1),
  PageUp: (x) => x + 10,
  PageDown: (x) => x - 10,
  Home: () => LIMITS.sliderMin,
  End: () => LIMITS.sliderMax,
};

export interface SliderCaptchaProps {
  /** The puzzle was solved: retry the sign-in with this id. */
  onPass: (captchaId: string) => void;
  onCancel: () => void;
}

/**
 * The slider puzzle (spec section 4): drag the handle (mouse, touch or pen) or move it with the
 * arrow keys and press Enter; the piece moves 1:1 with it over the 348 px picture, clamped to
 * 0–281 px. On release the slide is checked, with the trace of the drag or key presses; a wrong slide
 * shows the error and a new puzzle.
 */
export function SliderCaptcha({ onPass, onCancel }: SliderCaptchaProps) {
  const { t } = useTranslation('sign');
  const titleId = useId();
  const hintId = useId();
  // A puzzle is spent once checked: a new SliderCaptcha (a new sign-in attempt) must not be given the cached one.
  const [instance] = useState(() => ++puzzlesShown);
  const [round, setRound] = useState(0);
  const puzzle = useQuery({
    queryKey: [API.captcha, instance, round],
    queryFn: getCaptcha,
    staleTime: Infinity,
    gcTime: 0,
  });
  const [x, setX] = useState(0);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string>();
  const drag = useRef<{ pointerId: number; startX: number; startValue: number } | null>(null);
  // Where the slider was over time since it was first moved: sent with the check, which judges it as a person's.
  const trace = useRef<{ start: number; points: TTracePoint[] } | null>(null);

  function record(value: number) {
    const now = performance.now();
    trace.current ??= { start: now, points: [] };
    const { start, points } = trace.current;
    // Past the limit each new point replaces the last, so the trace still ends where the slider is.
    if (points.length >= CAPTCHA_TRACE.maxPoints) points.pop();
    points.push({ x: value, t: Math.min(CAPTCHA_TRACE.maxMs, Math.round(now - start)) });
  }

  function newPuzzle() {
    setX(0);
    trace.current = null;
    setRound((r) => r + 1);
  }

  async function check(value: number) {
    const captchaId = puzzle.data?.captchaId;
    if (!captchaId || checking) return;
    const points = trace.current?.points ?? [];
    trace.current = null;
    setChecking(true);
    setError(undefined);
    try {
      await checkCaptcha(captchaId, value, points);
      onPass(captchaId);
    } catch (failure) {
      setError(signInErrorMessage(failure) ?? t('captcha.failed'));
      newPuzzle();
    } finally {
      setChecking(false);
    }
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (checking || !puzzle.data) return;
    event.preventDefault();
    event.currentTarget.focus();
    try {
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // Capture is a convenience; moves over the handle still arrive.
    }
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startValue: x };
    record(x);
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const value = clampSlider(current.startValue + event.clientX - current.startX);
    setX(value);
    record(value);
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    const value = clampSlider(current.startValue + event.clientX - current.startX);
    setX(value);
    record(value);
    void check(value);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (checking || !puzzle.data) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      void check(x);
      return;
    }
    const step = KEY_STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    const value = clampSlider(step(x, event.shiftKey));
    // A key moves the slider in one step: where it was until now, and where it is from now on.
    record(x);
    record(value);
    setX(value);
  }

  const display = puzzle.data?.displayData;
  return (
    <div className="slider-captcha" role="group" aria-labelledby={titleId}>
      <h2 id={titleId} className="slider-captcha__title">
        {t('captcha.title')}
      </h2>
      <p id={hintId} className="slider-captcha__hint">
        {t('captcha.hint')}
      </p>
      <div className="slider-captcha__picture" aria-busy={!display}>
        {display ? (
          <>
            <img src={display.baseImg} alt={t('captcha.picture')} width={display.width} height={display.height} />
            <img
              src={display.jigsawImg}
              alt=""
              className="slider-captcha__piece"
              width={display.pieceSize}
              height={display.pieceSize}
              style={{ left: x, top: display.y }}
              data-testid="captcha-piece"
            />
          </>
        ) : (
          <Skeleton.Node active className="slider-captcha__loading" />
        )}
      </div>
      <div className="slider-captcha__track" style={{ width: LIMITS.sliderMax + HANDLE_PX }}>
        <div className="slider-captcha__fill" style={{ width: x + HANDLE_PX / 2 }} aria-hidden="true" />
        <div
          role="slider"
          tabIndex={0}
          className="slider-captcha__handle"
          style={{ transform: `translateX(${x}px)`, width: HANDLE_PX }}
          aria-label={t('captcha.slider')}
          aria-describedby={hintId}
          aria-valuemin={LIMITS.sliderMin}
          aria-valuemax={LIMITS.sliderMax}
          aria-valuenow={x}
          aria-disabled={checking || !display}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        >
          <ArrowRightOutlined aria-hidden="true" />
        </div>
      </div>
      <div role="alert" className="slider-captcha__error">
        {error && <Alert type="error" showIcon title={error} />}
      </div>
      <div className="slider-captcha__actions">
        <Button kind="secondary" icon={<ReloadOutlined />} onClick={newPuzzle} disabled={checking}>
          {t('captcha.newPuzzle')}
        </Button>
        <Button kind="secondary" onClick={onCancel}>
          {t('captcha.back')}
        </Button>
      </div>
    </div>
  );
}
