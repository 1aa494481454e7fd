import { AppstoreAddOutlined, CheckCircleOutlined, ExperimentOutlined, ImportOutlined } from '@ant-design/icons';
import {
  LANGUAGE_NAMES,
  LANGUAGES,
  hasPermission,
  isLanguage,
  type Language,
  type TStarterCourse,
} from '@aiedu/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Drawer, Empty, Flex, Select, Skeleton, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionRoles } from '../../app/session';
import { Button } from '../../ui/button';
import { importStarterCourse, starterKeys, useStarterCourses } from './course-api';
import { courseEditPath } from './course-paths';

/** The UI language as a product language (the default language of an import). */
function useUiLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

/** One starter course: what it is, where it runs, the copies imported, and its import in a chosen language. */
function StarterCourseCard({ course }: { course: TStarterCourse }) {
  const { t } = useTranslation('course');
  const ui = useUiLanguage();
  const client = useQueryClient();
  const headingId = useId();
  const [language, setLanguage] = useState<Language>(ui);
  const name = course.names[ui] ?? course.names.en;
  const importing = useMutation({
    mutationFn: (chosen: Language) => importStarterCourse({ slug: course.slug, language: chosen }),
    onSuccess: ({ courseId }, chosen) => {
      client.setQueryData<TStarterCourse[]>(starterKeys.all, (list) =>
        list?.map((c) =>
          c.slug === course.slug ? { ...c, imported: [...c.imported, { language: chosen, courseId }] } : c,
        ),
      );
      void client.invalidateQueries({ queryKey: starterKeys.all });
      // The new course is published: the centre's lists show it.
      void client.invalidateQueries({ queryKey: ['course', 'centre'] });
    },
    // A refusal is shown by the app's error handling.
  });
  const importedLanguages = LANGUAGES.filter((l) => course.imported.some((i) => i.language === l));
  const earlier = course.imported.findLast((i) => i.language === language);
  const done = importing.data && importing.variables ? importing : null;

  return (
    <Card size="small" aria-labelledby={headingId}>
      <Typography.Title level={2} id={headingId} style={{ fontSize: 18, marginTop: 0 }}>
        {name}
      </Typography.Title>
      <Flex wrap gap={4} style={{ marginBottom: 8 }}>
        <Tag color={course.environment === 'ai' ? 'purple' : 'blue'}>
          {t(`starter.environment.${course.environment}`)}
        </Tag>
        <Tag icon={<ExperimentOutlined />}>{t('starter.experiments', { count: course.experiments })}</Tag>
        {importedLanguages.length > 0 && (
          <Tag icon={<CheckCircleOutlined />}>
            {t('starter.imported', {
              languages: importedLanguages.map((l) => LANGUAGE_NAMES[l]).join(t('starter.listSeparator')),
            })}
          </Tag>
        )}
      </Flex>
      <Typography.Paragraph>{course.descriptions[ui] ?? course.descriptions.en}</Typography.Paragraph>
      <Flex wrap gap="small" align="center">
        <span aria-hidden>{t('starter.language')}</span>
        <Select<Language>
          aria-label={t('starter.languageOf', { name })}
          value={language}
          onChange={setLanguage}
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          style={{ minWidth: 140 }}
        />
        <Button
          kind={earlier ? 'secondary' : 'primary'}
          icon={<ImportOutlined />}
          loading={importing.isPending}
          aria-label={t(earlier ? 'starter.importAgainOf' : 'starter.importOf', { name })}
          onClick={() => importing.mutate(language)}
        >
          {t(earlier ? 'starter.importAgain' : 'starter.import')}
        </Button>
      </Flex>
      {earlier && !(done && done.variables === language) && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('starter.already', { language: LANGUAGE_NAMES[language] })}{' '}
          <Link to={courseEditPath(earlier.courseId)} style={{ textDecoration: 'underline' }}>
            {t('starter.openCopy')}
          </Link>
        </Typography.Paragraph>
      )}
      {done && (
        <Alert
          style={{ marginTop: 8 }}
          type="success"
          showIcon
          title={t('starter.done', { name, language: LANGUAGE_NAMES[done.variables!] })}
          description={<Link to={courseEditPath(done.data!.courseId)}>{t('starter.openEditor')}</Link>}
        />
      )}
    </Card>
  );
}

/** The starter courses in order, each with its import. */
function StarterCourseList() {
  const { t } = useTranslation('course');
  const starters = useStarterCourses(true);
  if (starters.isPending) return <Skeleton active title={false} paragraph={{ rows: 8 }} />;
  if (starters.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('starter.loadFailed')}
        action={<Button onClick={() => void starters.refetch()}>{t('starter.retry')}</Button>}
      />
    );
  if (starters.data.length === 0) return <Empty description={t('starter.empty')} />;
  return (
    <ul aria-label={t('starter.list')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {[...starters.data]
        .sort((a, b) => a.order - b.order)
        .map((course) => (
          <li key={course.slug} style={{ marginBottom: 12 }}>
            <StarterCourseCard course={course} />
          </li>
        ))}
    </ul>
  );
}

/** The course centre's "Starter courses" for institution administrators, and the drawer it opens. */
export function StarterCoursesButton() {
  const { t } = useTranslation('course');
  const roles = useSessionRoles();
  const [open, setOpen] = useState(false);
  if (!hasPermission(roles, 'course.import')) return null;
  return (
    <>
      <Button size="large" icon={<AppstoreAddOutlined />} onClick={() => setOpen(true)}>
        {t('starter.open')}
      </Button>
      <Drawer open={open} title={t('starter.title')} size={640} onClose={() => setOpen(false)} destroyOnHidden>
        <Typography.Paragraph>{t('starter.lead')}</Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('starter.aiNote')}</Typography.Paragraph>
        <StarterCourseList />
      </Drawer>
    </>
  );
}
