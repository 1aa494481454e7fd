import { CaretRightOutlined, PauseOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../app/paths';
import { useLoggedIn } from '../../app/session';
import { ShellButton, ShellLinkButton } from '../../ui/shell-button';
import competeImage from '../../assets/banner-compete.svg';
import createImage from '../../assets/banner-create.svg';
import learnImage from '../../assets/banner-learn.svg';

const SLIDES = [
  { id: 'learn', image: learnImage },
  { id: 'create', image: createImage },
  { id: 'compete', image: competeImage },
] as const;

const AUTOPLAY_MS = 5000;

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The rotating three-image banner (spec section 9) with the page heading as HTML text over it. A few lines of
 * our own instead of a carousel library keep the landing page's JavaScript small.
 */
export function HomeBanner() {
  const { t } = useTranslation('home');
  const loggedIn = useLoggedIn();
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const [current, setCurrent] = useState(0);
  // Hovering or focusing the banner holds it still, so nobody has to chase a moving slide.
  const [held, setHeld] = useState(false);
  const total = SLIDES.length;

  useEffect(() => {
    if (!playing || held) return;
    const timer = window.setInterval(() => setCurrent((index) => (index + 1) % total), AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  }, [playing, held, total]);

  return (
    <section className="home-banner" aria-labelledby="home-banner-title">
      <div className="home-banner__intro">
        <h1 id="home-banner-title" className="home-banner__title">
          {t('banner.title')}
        </h1>
        <p className="home-banner__lead">{t('banner.lead')}</p>
        <ShellLinkButton kind="primary" size="large" to={loggedIn ? PATHS.learnerHome : PATHS.login}>
          {t('banner.cta')}
        </ShellLinkButton>
      </div>
      <div
        className="home-banner__carousel"
        role="region"
        aria-roledescription="carousel"
        aria-label={t('banner.label')}
        onMouseEnter={() => setHeld(true)}
        onMouseLeave={() => setHeld(false)}
        onFocus={() => setHeld(true)}
        onBlur={() => setHeld(false)}
      >
        <div className="home-banner__slides" aria-live={playing ? 'off' : 'polite'}>
          {SLIDES.map((slide, index) => (
            <div
              key={slide.id}
              className="home-banner__slide"
              data-active={index === current || undefined}
              role="group"
              aria-roledescription="slide"
              aria-label={t('banner.slide', { n: index + 1, total })}
              aria-hidden={index !== current}
            >
              <img src={slide.image} alt={t(`banner.slides.${slide.id}.alt`)} className="home-banner__image" />
              <p className="home-banner__caption">{t(`banner.slides.${slide.id}.caption`)}</p>
            </div>
          ))}
        </div>
        <ul className="home-banner__dots">
          {SLIDES.map((slide, index) => (
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
      </div>
    </section>
  );
}
