import type { TArea } from '@aiedu/contracts';
import { Cascader } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { ADMIN_API } from './admin-api';

interface Option {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: Option[];
}

const children = async (parentCode?: string): Promise<Option[]> =>
  (await api.get<TArea[]>(ADMIN_API.areaChildren, { query: { parentCode } })).map((a) => ({
    value: a.code,
    label: a.name,
    isLeaf: a.leaf,
  }));

/**
 * Country, province, city and district from the administrative divisions, loaded a level at a time. The value is
 * the list of codes; an existing value has its levels loaded so its names show.
 */
export function RegionField({ value, onChange }: { value?: string[]; onChange?: (codes: string[]) => void }) {
  const { t } = useTranslation('admin');
  const [options, setOptions] = useState<Option[]>([]);
  const wanted = (value ?? []).join(',');

  useEffect(() => {
    let alive = true;
    void (async () => {
      const roots = await children();
      let level = roots;
      for (const code of wanted ? wanted.split(',') : []) {
        const node = level.find((o) => o.value === code);
        if (!node || node.isLeaf) break;
        node.children = await children(code);
        level = node.children;
      }
      if (alive) setOptions(roots);
    })();
    return () => {
      alive = false;
    };
  }, [wanted]);

  return (
    <Cascader<Option>
      aria-label={t('customers.region')}
      options={options}
      value={value}
      changeOnSelect
      placeholder={t('customers.region')}
      onChange={(codes) => onChange?.((codes ?? []) as string[])}
      loadData={async (path) => {
        const target = path[path.length - 1];
        if (!target) return;
        target.children = await children(target.value);
        setOptions((current) => [...current]);
      }}
    />
  );
}
