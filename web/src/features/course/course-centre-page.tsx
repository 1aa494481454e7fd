import { COURSE_LEVELS, COURSE_SORTS, type TCentreQuery } from '@aiedu/contracts';
import { Empty, Pagination, Select, Skeleton } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentScreen } from '../../app/screen';
import { CreateCourseAction } from './author-gate';
import { useCentre, useFilters } from './course-api';
import { CourseApplyButton } from './course-apply-dialog';
import { CourseCard } from './course-card';
import { coursePath } from './course-paths';
import { JoinByCode } from './join-by-code';
import { StarterCoursesButton } from './starter-courses';
import './course.css';
import { SearchInput } from '../../ui/named-icons';

type FilterKey = 'directionId' | 'stageId' | 'difficultyId' | 'level' | 'tag';

/** The course centre and the course list: filters, search, sort, join by code, a grid of courses. */
export function CourseCentrePage() {
  const { t } = useTranslation('course');
  const screen = useCurrentScreen() ?? 'courseCentre';
  const [params, setParams] = useSearchParams();
  const filters = useFilters();
  const headingId = useId();
  const query: TCentreQuery = {
    page: Number(params.get('page') ?? 1),
    size: 12,
    sort: (params.get('sort') as TCentreQuery['sort']) ?? 'publishedAt,desc',
    ...Object.fromEntries(
      (['keyword', 'directionId', 'stageId', 'difficultyId', 'level', 'tag'] as const)
        .map((k) => [k, params.get(k) ?? undefined])
        .filter(([, v]) => v),
    ),
  };
  const centre = useCentre(query);

  const set = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const options = (items: { id: string; name: string }[] | undefined) => [
    { value: '', label: t('centre.any') },
    ...(items ?? []).map((i) => ({ value: i.id, label: i.name })),
  ];
  const selects: [FilterKey, string, { value: string; label: string }[]][] = [
    ['directionId', t('centre.direction'), options(filters.data?.directions)],
    ['stageId', t('centre.stage'), options(filters.data?.stages)],
    ['difficultyId', t('centre.difficulty'), options(filters.data?.difficulties)],
    [
      'level',
      t('centre.level'),
      [{ value: '', label: t('centre.any') }, ...COURSE_LEVELS.map((l) => ({ value: l, label: t(`levels.${l}`) }))],
    ],
    [
      'tag',
      t('centre.tag'),
      [
        { value: '', label: t('centre.any') },
        ...(filters.data?.tags ?? []).map((g) => ({ value: g.name, label: g.name })),
      ],
    ],
  ];

  return (
    <div className="page course-centre">
      <header className="course-centre__head">
        <div>
          <h1 id={headingId}>{t(screen, { ns: 'screens' })}</h1>
          <p className="course-centre__lead">{t('centre.lead')}</p>
        </div>
        <div className="course-centre__actions">
          <CourseApplyButton />
          <StarterCoursesButton />
          <CreateCourseAction />
        </div>
      </header>
      <JoinByCode />
      <section className="course-filters" aria-label={t('centre.search')}>
        <SearchInput
          aria-label={t('centre.search')}
          placeholder={t('centre.search')}
          defaultValue={query.keyword}
          onSearch={(v) => set('keyword', v.trim() || undefined)}
          allowClear
          className="course-filters__search"
        />
        {selects.map(([key, label, items]) => (
          <label key={key} className="course-filters__field">
            <span>{label}</span>
            <Select
              aria-label={label}
              value={params.get(key) ?? ''}
              options={items}
              onChange={(v: string) => set(key, v || undefined)}
              className="course-filters__select"
            />
          </label>
        ))}
        <label className="course-filters__field">
          <span>{t('centre.sort')}</span>
          <Select
            aria-label={t('centre.sort')}
            value={query.sort}
            options={COURSE_SORTS.map((s) => ({ value: s, label: t(`centre.sorts.${s}`) }))}
            onChange={(v: string) => set('sort', v)}
            className="course-filters__select"
          />
        </label>
      </section>
      {centre.isPending ? (
        <Skeleton active title={false} paragraph={{ rows: 6 }} />
      ) : centre.data && centre.data.list.length > 0 ? (
        <>
          <p className="course-centre__count">{t('centre.results', { count: centre.data.total })}</p>
          <ul className="course-grid" aria-labelledby={headingId}>
            {centre.data.list.map((course) => (
              <li key={course.id}>
                <CourseCard course={course} to={coursePath(course.id)} />
              </li>
            ))}
          </ul>
          <Pagination
            current={centre.data.page}
            pageSize={centre.data.size}
            total={centre.data.total}
            onChange={(page) => set('page', String(page))}
            hideOnSinglePage
          />
        </>
      ) : (
        <Empty description={t('centre.empty')} />
      )}
    </div>
  );
}
