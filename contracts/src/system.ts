import { z } from 'zod';
import { LANGUAGES } from './languages.js';

export const ZEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ errorCode: z.string(), errorMsg: z.string(), data });

export const ZSysSetting = z.object({
  isCustomerSingle: z.boolean().describe('One-customer deployment: the login dialog hides the customer-code field'),
  isVerifyCode: z.boolean().describe('Every password login requires the slider captcha'),
});
export type TSysSetting = z.infer<typeof ZSysSetting>;

export const ZLanguageItem = z.object({ code: z.enum(LANGUAGES), name: z.string() });
export type TLanguageItem = z.infer<typeof ZLanguageItem>;

export const ZAppItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  path: z.string().describe('Where the product chooser sends the user'),
});
export type TAppItem = z.infer<typeof ZAppItem>;

export const ZHealth = z.object({ status: z.enum(['ok', 'unavailable']) });
