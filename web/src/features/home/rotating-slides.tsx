import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ShellButton } from '../../ui/shell-button';

const AUTOPLAY_MS = 5000;

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

export interface Slide {
  id: string;
  content: ReactNode;
}

/**
 * Slides that rotate every 5 s (spec section 9: a rotating banner): a named carousel region with a named group per
 * slide, a named dot per slide and a pause button. It stands still on hover and focus, and starts paused for people
 * who ask for reduced motion. A few lines of our own instead of a carousel library keep /home's JavaScript small.
 */
export function RotatingSlides({ label, slides, className }: { label: string; slides: Slide[]; className?: string }) {
  const { t } = useTranslation('home');
  const [playing, setPlaying] = useState(() => !prefersReducedMotion() && slides.length > 1);
  const [current, setCurrent] = useState(0);
  // Hovering or focusing the slides holds them still, so nobody has to chase a moving slide.
  const [held, setHeld] = useState(false);
  const total = slides.length;

  useEffect(() => {
    if (!playing || held) return;
    const timer = window.setInterval(() => setCurrent((index) => (index + 1) % total), AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  }, [playing, held, total]);

  return (
    <div
      className={`home-banner__carousel${className ? ` ${className}` : ''}`}
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div className="home-banner__slides" aria-live={playing ? 'off' : 'polite'}>
        {slides.map((slide, index) => (
          <div
            key={slide.id}
            className="home-banner__slide"
            data-active={index === current || undefined}
            role="group"
            aria-roledescription="slide"
            aria-label={t('banner.slide', { n: index + 1, total })}
            aria-hidden={index !== current}
            // A hidden slide's link takes no focus either.
            inert={index !== current}
          >
            {slide.content}
          </div>
        ))}
      </div>
      {total > 1 && (
        <>
          <ul className="home-banner__dots">
            {slides.map((slide, index) => (
              <li key={slide.id}>
                <button
                  type="button"
                  className="home-banner__dot"
                  aria-label={t('banner.goTo', { n: index + 1, total })}
                  aria-current={index === current ? 'true' : undefined}
                  onClick={() => setCurrent(index)}
                />
              </li>
            ))}
          </ul>
          <ShellButton
            kind="icon"
            className="home-banner__toggle"
            icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
            aria-label={playing ? t('banner.pause') : t('banner.play')}
            onClick={() => setPlaying((value) => !value)}
          />
        </>
      )}
    </div>
  );
}
