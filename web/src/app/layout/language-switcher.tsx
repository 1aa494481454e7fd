import { GlobalOutlined } from '@ant-design/icons';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@aiedu/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, HTML_LANG, useLanguage } from '../i18n';

/** A native select: keyboard and screen-reader friendly everywhere, each language named in itself. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const language = useLanguage();
  const id = useId();
  return (
    <div className="language-switcher">
      <label htmlFor={id} className="language-switcher__label">
        <GlobalOutlined aria-hidden="true" />
        <span className="visually-hidden">{t('language.label')}</span>
      </label>
      <select
        id={id}
        className="language-switcher__select"
        value={language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={HTML_LANG[code]}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
