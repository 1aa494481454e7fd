import { useTranslation } from 'react-i18next';
import { PATHS } from '../../app/paths';
import { usePlatformBrand } from '../../app/platform';
import { useLoggedIn } from '../../app/session';
import { ShellLinkButton } from '../../ui/shell-button';
import competeImage from '../../assets/banner-compete.svg';
import createImage from '../../assets/banner-create.svg';
import learnImage from '../../assets/banner-learn.svg';
import { RotatingSlides } from './rotating-slides';

const SLIDES = [
  { id: 'learn', image: learnImage },
  { id: 'create', image: createImage },
  { id: 'compete', image: competeImage },
] as const;

/** The rotating three-image banner (spec section 9) with the page heading as HTML text over it. */
export function HomeBanner() {
  const { t } = useTranslation('home');
  const loggedIn = useLoggedIn();
  const { name } = usePlatformBrand();
  return (
    <section className="home-banner" aria-labelledby="home-banner-title">
      <div className="home-banner__intro">
        <p className="home-banner__brand">{name}</p>
        <h1 id="home-banner-title" className="home-banner__title">
          {t('banner.title')}
        </h1>
        <p className="home-banner__lead">{t('banner.lead')}</p>
        <ShellLinkButton kind="primary" size="large" to={loggedIn ? PATHS.learnerHome : PATHS.login}>
          {t('banner.cta')}
        </ShellLinkButton>
      </div>
      <RotatingSlides
        label={t('banner.label')}
        slides={SLIDES.map((slide) => ({
          id: slide.id,
          content: (
            <>
              <img src={slide.image} alt={t(`banner.slides.${slide.id}.alt`)} className="home-banner__image" />
              <p className="home-banner__caption">{t(`banner.slides.${slide.id}.caption`)}</p>
            </>
          ),
        }))}
      />
    </section>
  );
}
