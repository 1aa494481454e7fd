import type { RouteEntry } from '../platform/route-table.js';

/** A zod schema as its definition shows it (zod 4's `_zod.def`), read without depending on zod's internal types. */
interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  in?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  options?: { _zod: { def: Def } }[];
  left?: { _zod: { def: Def } };
  right?: { _zod: { def: Def } };
  valueType?: { _zod: { def: Def } };
  values?: unknown[];
}

const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def: Def } } | undefined)?._zod?.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The paths of every field that takes text in a zod schema (an array's items as index 0, a record's as `key`). */
export function textFields(schema: unknown, path: string[] = []): string[][] {
  const def = defOf(schema);
  if (!def) return [];
  if (def.type === 'string' || def.type === 'enum' || def.type === 'template_literal') return [path];
  if (def.type === 'literal') return def.values?.some((v) => typeof v === 'string') ? [path] : [];
  if (WRAPPERS.has(def.type)) return textFields(def.innerType, path);
  if (def.type === 'pipe') return textFields(def.in, path);
  if (def.type === 'array') return textFields(def.element, [...path, '0']);
  if (def.type === 'record') return textFields(def.valueType, [...path, 'key']);
  if (def.type === 'object') {
    return Object.entries(def.shape ?? {}).flatMap(([key, field]) => textFields(field, [...path, key]));
  }
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => textFields(option, path));
  if (def.type === 'intersection') return [...textFields(def.left, path), ...textFields(def.right, path)];
  return [];
}

/** A value with `leaf` at `path` and nothing else. */
function nested(path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  return head === '0' ? [nested(rest, leaf)] : { [head!]: nested(rest, leaf) };
}

const SAMPLE_ID = '0192f7a0-0000-7000-8000-000000000000';

/** The route's URL with every path parameter filled in: `override` for `name`, a well-formed id for the others. */
export function urlOf(route: RouteEntry, name?: string, override?: string) {
  return route.url
    .replace(/:(\w+)/g, (_match, param: string) => (param === name ? override! : param === 'type' ? 'oidc' : SAMPLE_ID))
    .replace(/\*$/, 'x');
}

export interface RouteInput {
  route: RouteEntry;
  /** Where the text goes, as the validation error names it: `body.name`, `querystring.partName`, `params.id`. */
  field: string;
  url: string;
  payload?: unknown;
}

/** Whether `text` can travel in a URL (a lone surrogate has no UTF-8, so only a JSON body carries one). */
function inUrl(text: string) {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** One request per text field of every route's params, query and body, with `text` in that field alone. */
export function textInputs(routes: RouteEntry[], text: string): RouteInput[] {
  const inputs: RouteInput[] = [];
  for (const route of routes) {
    const schema = (route.schema ?? {}) as { params?: unknown; querystring?: unknown; body?: unknown };
    const url = inUrl(text);
    for (const [param] of url ? textFields(schema.params) : []) {
      inputs.push({ route, field: `params.${param}`, url: urlOf(route, param, encodeURIComponent(text)) });
    }
    for (const path of url ? textFields(schema.querystring) : []) {
      const query = new URLSearchParams({ [path[0]!]: text }).toString();
      inputs.push({ route, field: `querystring.${path[0]}`, url: `${urlOf(route)}?${query}` });
    }
    for (const path of textFields(schema.body)) {
      inputs.push({ route, field: ['body', ...path].join('.'), url: urlOf(route), payload: nested(path, text) });
    }
  }
  return inputs;
}
