import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useInstitutionHome } from '../../app/institution';
import { HomeAreas, HomeSchools } from './home-areas';
import { HomeBanner } from './home-banner';
import { InstitutionSection } from './institution-section';
import './home.css';

/** The landing page (`/home`), also the learner home (`/pjedu/home`) for now. */
export function HomePage() {
  const { hash } = useLocation();
  const institution = useInstitutionHome().data;

  // Header links such as `/home#courses` lead to an area's introduction: scroll there and move focus.
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
  }, [hash]);

  return (
    <>
      <HomeBanner />
      <div className="page">
        {institution && <InstitutionSection home={institution} />}
        <HomeAreas />
        <HomeSchools />
      </div>
    </>
  );
}
