import { VALIDATION_MESSAGES, type Language } from '@aiedu/contracts';
import { safeParse, type $ZodIssue } from 'zod/v4/core';
import { en, ja, zhCN, zhTW } from 'zod/v4/locales';
import type { FastifySchemaCompiler } from 'fastify';

const LOCALES = { en: en(), zh_CHS: zhCN(), zh_CHT: zhTW(), ja: ja() } satisfies Record<Language, unknown>;

/** fastify-type-provider-zod marks its validation errors so that `hasZodFastifySchemaValidationErrors` knows them. */
const MARK = Symbol.for('ZodFastifySchemaValidationError');

/**
 * fastify-type-provider-zod's validator, keeping each issue whole (with the input it judged) so that the error
 * handler can say it again in the caller's language: zod writes its messages once, in English, while parsing.
 */
export const validatorCompiler: FastifySchemaCompiler<Parameters<typeof safeParse>[0]> =
  ({ schema }) =>
  (data) => {
    const result = safeParse(schema, data, { reportInput: true });
    if (!result.error) return { value: result.data };
    return {
      error: result.error.issues.map((issue) => ({
        [MARK]: true,
        keyword: issue.code,
        instancePath: `/${issue.path.join('/')}`,
        schemaPath: `#/${issue.path.join('/')}/${issue.code}`,
        message: issue.message,
        params: { issue },
      })) as unknown as Error,
    };
  };

const text = (message: ReturnType<ReturnType<typeof en>['localeError']>) =>
  typeof message === 'string' ? message : message?.message;

/**
 * A validation message in the caller's language: zod's own messages through zod's locale of that language, a
 * schema's own message through the contracts' table (English where the table has none).
 */
export function localiseIssue(message: string, language: Language, issue?: $ZodIssue): string {
  if (language === 'en') return message;
  if (issue) {
    const raw = { ...issue, path: issue.path } as Parameters<ReturnType<typeof en>['localeError']>[0];
    if (text(LOCALES.en.localeError(raw)) === message) return text(LOCALES[language].localeError(raw)) ?? message;
  }
  return VALIDATION_MESSAGES[language][message] ?? message;
}
