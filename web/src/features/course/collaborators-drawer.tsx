import { TeamOutlined, UserDeleteOutlined } from '@ant-design/icons';
import type { TEditableCourse } from '@aiedu/contracts';
import { Button, Drawer, Empty, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollaboratorSearch } from './course-api';

const nameOf = (person: { username: string; name: string }) =>
  person.name && person.name !== person.username ? `${person.name} (${person.username})` : person.username;

/**
 * The course's collaborators: teachers of the owner's institution who edit it too. The owner adds them by part of a
 * username or name and removes them; everyone else sees the list only.
 */
function CollaboratorsPanel({
  course,
  onChange,
}: {
  course: TEditableCourse;
  onChange: (usernames: string[]) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const [keyword, setKeyword] = useState('');
  const [busy, setBusy] = useState(false);
  const found = useCollaboratorSearch(course.id, keyword, course.isOwner);
  const usernames = course.collaborators.map((c) => c.username);
  const change = async (next: string[]) => {
    setBusy(true);
    try {
      await onChange(next);
    } catch {
      // The refusal was shown where every refusal is; the list stays as the server has it.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>{t('collaborators.lead')}</p>
      {course.isOwner ? (
        <label className="course-field">
          <span>{t('collaborators.add')}</span>
          <Select
            showSearch={{ filterOption: false, onSearch: setKeyword }}
            aria-label={t('collaborators.add')}
            placeholder={t('collaborators.searchHint')}
            value={null}
            loading={found.isFetching}
            disabled={busy}
            notFoundContent={t('collaborators.noMatch')}
            options={(found.data ?? []).map((person) => ({ value: person.username, label: nameOf(person) }))}
            onChange={(username: string | null) => username && void change([...usernames, username])}
          />
        </label>
      ) : (
        <p className="course-collaborators__note">{t('collaborators.ownerOnly')}</p>
      )}
      {course.collaborators.length === 0 ? (
        <Empty description={t('collaborators.none')} />
      ) : (
        <ul className="course-editor__list" aria-label={t('collaborators.title')}>
          {course.collaborators.map((person) => (
            <li key={person.id}>
              <span>{nameOf(person)}</span>
              {course.isOwner && (
                <Button
                  type="text"
                  icon={<UserDeleteOutlined />}
                  disabled={busy}
                  aria-label={t('collaborators.remove', { name: nameOf(person) })}
                  onClick={() => void change(usernames.filter((u) => u !== person.username))}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The editor's Collaborators button and the drawer it opens. */
export function CollaboratorsButton({
  course,
  onChange,
}: {
  course: TEditableCourse;
  onChange: (usernames: string[]) => Promise<unknown>;
}) {
  const { t } = useTranslation('course');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="large" icon={<TeamOutlined />} onClick={() => setOpen(true)}>
        {t('collaborators.open', { count: course.collaborators.length })}
      </Button>
      <Drawer open={open} title={t('collaborators.title')} onClose={() => setOpen(false)} destroyOnHidden>
        <CollaboratorsPanel course={course} onChange={onChange} />
      </Drawer>
    </>
  );
}
