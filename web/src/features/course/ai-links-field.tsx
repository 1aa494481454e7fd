import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { isHttpUrl, LIMITS, LINK_MAX } from '@aiedu/contracts';
import { Button, Input } from 'antd';
import { useTranslation } from 'react-i18next';

export interface AiLink {
  title: string;
  url: string;
}

/** At most this many AI experiences per section (the server's limit). */
const MAX_LINKS = 10;

/** Whether every link has a name and an http(s) address: the section is saved only then. */
export const aiLinksValid = (links: readonly AiLink[]) =>
  links.every((l) => l.title.trim().length > 0 && isHttpUrl(l.url.trim()));

/** The AI experiences of a section: a name and a link each, added and removed in place, saved with the section. */
export function AiLinksField({
  links,
  editable,
  onChange,
}: {
  links: AiLink[];
  editable: boolean;
  onChange: (links: AiLink[]) => void;
}) {
  const { t } = useTranslation('course');
  const change = (index: number, patch: Partial<AiLink>) =>
    onChange(links.map((link, i) => (i === index ? { ...link, ...patch } : link)));
  const invalid = !aiLinksValid(links);
  if (!editable && links.length === 0) return null;
  return (
    <fieldset className="course-ai-links">
      <legend>{t('detail.aiLinks')}</legend>
      {editable && <p className="course-ai-links__hint">{t('editor.aiLinksHint')}</p>}
      <ol className="course-ai-links__list">
        {links.map((link, index) => (
          <li key={index} className="course-ai-links__row">
            <Input
              aria-label={t('editor.aiLinkTitle', { number: index + 1 })}
              placeholder={t('editor.aiLinkTitlePlaceholder')}
              value={link.title}
              maxLength={LIMITS.courseTitle}
              disabled={!editable}
              onChange={(e) => change(index, { title: e.target.value })}
            />
            <Input
              aria-label={t('editor.aiLinkUrl', { number: index + 1 })}
              placeholder={t('editor.aiLinkUrlPlaceholder')}
              inputMode="url"
              value={link.url}
              maxLength={LINK_MAX}
              disabled={!editable}
              onChange={(e) => change(index, { url: e.target.value })}
            />
            {editable && (
              <Button
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t('editor.removeAiLink', { number: index + 1 })}
                onClick={() => onChange(links.filter((_, i) => i !== index))}
              />
            )}
          </li>
        ))}
      </ol>
      {editable && invalid && (
        <p className="course-ai-links__error" role="alert">
          {t('editor.aiLinkInvalid')}
        </p>
      )}
      {editable && links.length < MAX_LINKS && (
        <Button icon={<PlusOutlined />} onClick={() => onChange([...links, { title: '', url: '' }])}>
          {t('editor.addAiLink')}
        </Button>
      )}
    </fieldset>
  );
}
