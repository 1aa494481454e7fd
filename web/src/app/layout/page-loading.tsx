import { useTranslation } from 'react-i18next';

/** Shown in the content area while a page's code loads for the first time. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page page-loading" role="status">
      <span className="visually-hidden">{t('app.loading')}</span>
      <div className="page-loading__bar" />
      <div className="page-loading__bar" />
      <div className="page-loading__bar page-loading__bar--short" />
    </div>
  );
}
