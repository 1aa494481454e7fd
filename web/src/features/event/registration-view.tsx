import type { TRegistration } from '@aiedu/contracts';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';

const FIELDS = [
  'birthday',
  'ethnicity',
  'documentNumber',
  'school',
  'grade',
  'studentNumber',
  'phone',
  'email',
  'qq',
  'wechat',
  'address',
  'district',
] as const;

/** A team's whole declaration, read-only: the team, then every applicant and mentor with every field. */
export function RegistrationView({ registration, trackName }: { registration: TRegistration; trackName: string }) {
  const { t } = useTranslation('event');
  const applicants = registration.members.filter((m) => m.role === 'applicant');
  const mentors = registration.members.filter((m) => m.role === 'mentor');
  return (
    <>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'team', label: t('declaration.teamName'), children: registration.teamName },
          { key: 'track', label: t('declaration.track'), children: trackName },
          { key: 'school', label: t('results.school'), children: registration.schoolName || '—' },
          { key: 'leader', label: t('qualification.leader'), children: registration.leaderName },
          {
            key: 'sent',
            label: t('qualification.sentAt'),
            children: registration.submittedAt ? formatDateTime(registration.submittedAt) : '—',
          },
        ]}
      />
      {[['applicants', applicants] as const, ['mentors', mentors] as const].map(([list, members]) => (
        <section key={list} className="event-section">
          <h2>{t(`declaration.${list}`)}</h2>
          {members.map((member, index) => (
            <Descriptions
              key={`${list}-${index}`}
              bordered
              size="small"
              column={1}
              className="event-section"
              title={member.name}
              items={[
                ...(member.photoUrl
                  ? [
                      {
                        key: 'photo',
                        label: t('member.photo'),
                        children: (
                          <img
                            src={member.photoUrl}
                            alt={t('declaration.photoOf', { name: member.name })}
                            className="event-member__photo"
                          />
                        ),
                      },
                    ]
                  : []),
                {
                  key: 'documentType',
                  label: t('member.documentType'),
                  children: member.documentType ? t(`documentTypes.${member.documentType}`) : '—',
                },
                ...FIELDS.map((field) => ({ key: field, label: t(`member.${field}`), children: member[field] || '—' })),
              ]}
            />
          ))}
        </section>
      ))}
    </>
  );
}
