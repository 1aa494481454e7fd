import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '..');
/** Static imports and re-exports (not `import type`, not `import()`, which loads when a page needs it). */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function resolveLocal(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** The packages a module and everything it imports statically load, with one chain of imports to each. */
function packagesReached(entries: string[]): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const queue = entries.map((file) => ({ file, chain: [path.relative(SRC, file)] }));
  while (queue.length) {
    const { file, chain } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('.')) {
        const next = resolveLocal(file, specifier!);
        if (next) queue.push({ file: next, chain: [...chain, path.relative(SRC, next)] });
      } else {
        const name = specifier!.startsWith('@')
          ? specifier!.split('/').slice(0, 2).join('/')
          : specifier!.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, chain);
      }
    }
  }
  return packages;
}

describe('the landing path', () => {
  // antd (its components and their style engine) loads with the first page that uses it, never for a visitor's
  // /home: the bundle benchmark measures what that saves. Single icons of @ant-design/icons are allowed.
  it('loads no antd: the entry, the route table, the layout and /home import none of it statically', () => {
    const reached = packagesReached([path.join(SRC, 'main.tsx'), path.join(SRC, 'features/home/home-page.tsx')]);
    const antd = [...reached].filter(([name]) => name === 'antd' || name === '@ant-design/cssinjs');
    expect(antd.map(([name, chain]) => `${name} via ${chain.join(' → ')}`)).toEqual([]);
    // The crawl does follow the app: the router and React are reached.
    expect(reached.has('react-router')).toBe(true);
    expect(reached.has('react')).toBe(true);
  });
});
