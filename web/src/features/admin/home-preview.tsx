import type { TInstitutionHome } from '@aiedu/contracts';
import { Card, Carousel, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { StoredLink } from '../../ui/stored-link';

interface Values {
  bannerLinks?: string[];
  projectTypes?: string[];
  footerSites?: { name?: string; url?: string }[];
}

/** What the institution's users will see on /home, following the form as it is typed. */
export function HomePreview({ home, values }: { home: TInstitutionHome; values: Values | undefined }) {
  const { t } = useTranslation('admin');
  const types = values?.projectTypes ?? home.projectTypes;
  const sites = (values?.footerSites ?? home.footerSites).filter((s) => s?.name);
  return (
    <Card title={<h2 className="ant-card-head-title">{t('home.preview')}</h2>} size="small">
      {home.banners.length > 0 ? (
        <Carousel autoplay dots>
          {home.banners.map((banner, i) => (
            <div key={banner.imageUrl}>
              <img
                className="admin-preview__banner"
                src={banner.imageUrl}
                alt={t('home.bannerAlt', { n: i + 1, link: values?.bannerLinks?.[i] ?? banner.link })}
              />
            </div>
          ))}
        </Carousel>
      ) : (
        <div className="admin-preview__banner" role="img" aria-label={t('home.noBanner')} />
      )}
      <div className="admin-preview__types">
        {types.map((type) => (
          <Tag key={type} color="blue">
            {type}
          </Tag>
        ))}
      </div>
      <footer>
        {sites.map((site) => (
          <StoredLink key={site.name} href={site.url} style={{ marginRight: 12 }}>
            {site.name}
          </StoredLink>
        ))}
      </footer>
    </Card>
  );
}
