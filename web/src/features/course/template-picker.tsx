import { useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProjectList } from '../project/project-api';

/**
 * The template project of an experiment: one of the author's projects (own or shared with them), found by name.
 * Each learner who starts the experiment gets a copy of it.
 */
export function TemplatePicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation('course');
  const [keyword, setKeyword] = useState('');
  const projects = useProjectList('mine', { keyword: keyword || undefined, size: 20, sort: 'updatedAt,desc' });
  return (
    <div className="course-template-picker">
      <Select
        aria-label={t('experiment.template')}
        placeholder={t('experiment.template')}
        showSearch={{ filterOption: false, onSearch: setKeyword }}
        allowClear
        loading={projects.isFetching}
        value={value}
        onChange={(id?: string | null) => onChange(id ?? null)}
        notFoundContent={t('experiment.noProjects')}
        options={(projects.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
      />
      <p className="course-experiment__hint">{t('experiment.templateHint')}</p>
    </div>
  );
}
