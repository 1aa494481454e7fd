import type { FormRule } from 'antd';

/** Anything with zod's `safeParse`: the contracts' schemas and their fields. */
interface Schema {
  safeParse(value: unknown): { success: boolean };
}

/**
 * An antd form rule from a schema of the contracts, so a form refuses exactly what the server
 * refuses (STYLE.md, "Contracts written once"), with a message of the form's own.
 */
export function schemaRule(schema: Schema, message: string): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      schema.safeParse(value === '' ? undefined : value).success
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}
