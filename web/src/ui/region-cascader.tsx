import { API, type TArea } from '@aiedu/contracts';
import { Cascader } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { api } from '../app/api';

interface Option {
  value: string;
  label: string;
  code: string;
  isLeaf: boolean;
  children?: Option[];
}

interface Shape {
  levels: number;
  valueKind: 'code' | 'name';
}

/** The options of the divisions under `parentCode`, the `depth`-th level shown (0 for the first). */
async function loadLevel(parentCode: string | undefined, depth: number, { levels, valueKind }: Shape) {
  const areas = await api.get<TArea[]>(API.areaChildren, { query: { parentCode } });
  return areas.map<Option>((area) => ({
    value: valueKind === 'name' ? area.name : area.code,
    label: area.name,
    code: area.code,
    isLeaf: area.leaf || depth + 1 >= levels,
  }));
}

export interface RegionCascaderProps {
  value?: string[];
  onChange?: (value: string[]) => void;
  /** Set by the form item, so its label names the field. */
  id?: string;
  /** The field's name for assistive technology (when no label names it), and the placeholder by default. */
  label: string;
  placeholder?: string;
  /** The division whose children are the first level: none for the countries, `CN` for its provinces. */
  rootCode?: string;
  /** How many levels can be picked (the divisions below are not offered); all by default. */
  levels?: number;
  /** What the value holds for each level: the divisions' codes, or their names. */
  valueKind?: 'code' | 'name';
}

/**
 * A place from the administrative divisions, loaded a level at a time; any level may be picked. A value has its
 * levels loaded so its names show; a value not among the divisions (typed by hand before there was a picker) shows
 * as it is.
 */
export function RegionCascader({
  value,
  onChange,
  id,
  label,
  placeholder = label,
  rootCode,
  levels = Infinity,
  valueKind = 'code',
}: RegionCascaderProps) {
  const [options, setOptions] = useState<Option[]>([]);
  const wanted = JSON.stringify(value ?? []);
  // A value picked here has its levels loaded already: only a value from outside (the saved one) loads them.
  const picked = useRef<string | null>(null);

  useEffect(() => {
    if (wanted === picked.current) return undefined;
    const shape = { levels, valueKind };
    let alive = true;
    void (async () => {
      const roots = await loadLevel(rootCode, 0, shape);
      let level = roots;
      for (const [depth, part] of (JSON.parse(wanted) as string[]).entries()) {
        const node = level.find((option) => option.value === part);
        if (!node || node.isLeaf) break;
        node.children = await loadLevel(node.code, depth + 1, shape);
        level = node.children;
      }
      if (alive) setOptions(roots);
    })().catch(() => {
      // The API client said why; the field stays empty.
    });
    return () => {
      alive = false;
    };
  }, [wanted, rootCode, levels, valueKind]);

  return (
    <Cascader<Option>
      id={id}
      aria-label={label}
      options={options}
      value={value}
      changeOnSelect
      placeholder={placeholder}
      onChange={(path) => {
        const next = (path ?? []) as string[];
        picked.current = JSON.stringify(next);
        onChange?.(next);
      }}
      loadData={async (path) => {
        const target = path[path.length - 1];
        if (!target) return;
        try {
          target.children = await loadLevel(target.code, path.length, { levels, valueKind });
          setOptions((current) => [...current]);
        } catch {
          // The API client said why; the level can be opened again.
        }
      }}
    />
  );
}
