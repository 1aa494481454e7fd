import { z } from 'zod';
import { CAPTCHA_TRACE, LIMITS } from './validation.js';

/** Password login (spec 3): the password is base64 of its UTF-8 text. */
export const ZLoginRequest = z.object({
  custcode: z.string().max(LIMITS.customerCode).optional().default(''),
  usernameOrEmailOrPhone: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200).describe('base64 of the UTF-8 password'),
  acid: z.string().max(100).optional(),
  verifycode: z.string().max(20).optional(),
  captchaId: z.string().max(100).optional(),
  sign: z.string().max(500).optional(),
  captcha: z.string().max(500).optional(),
});
export type TLoginRequest = z.input<typeof ZLoginRequest>;

export const ZTokenPair = z.object({ token: z.string(), refreshToken: z.string() });
export type TTokenPair = z.infer<typeof ZTokenPair>;

export const ZLoginResponse = ZTokenPair.extend({
  id: z.string(),
  roles: z.array(z.string()),
  mustChangePassword: z.boolean().describe('An administrator set the password: it must be changed now'),
  isSuper: z.boolean(),
  schoolId: z
    .string()
    .nullable()
    .describe("The account's school (the web client keeps it as schoolNumber); null for none"),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZVerifyCodeEnabledQuery = z.object({
  custcode: z.string().max(LIMITS.customerCode).optional().default(''),
  username: z.string().max(100).optional().default(''),
});

export const ZCaptcha = z.object({
  captchaId: z.string(),
  displayData: z.object({
    baseImg: z.string().describe('JPEG data URL: the background with the hole and decoy outlines'),
    jigsawImg: z.string().describe('PNG data URL: the piece'),
    y: z.number().int().describe('Top of the piece in the base image'),
    width: z.number().int(),
    height: z.number().int(),
    pieceSize: z.number().int(),
  }),
});
export type TCaptcha = z.infer<typeof ZCaptcha>;

export const ZTracePoint = z.object({
  x: z.number().min(LIMITS.sliderMin).max(LIMITS.sliderMax),
  t: z.number().int().min(0).max(CAPTCHA_TRACE.maxMs).describe('Milliseconds since the drag began'),
});
export type TTracePoint = z.infer<typeof ZTracePoint>;

export const ZCaptchaCheckRequest = z.object({
  captchaId: z.string().min(1).max(100),
  checkedData: z.object({
    x: z.number().min(LIMITS.sliderMin).max(LIMITS.sliderMax),
    trace: z
      .array(ZTracePoint)
      .max(CAPTCHA_TRACE.maxPoints)
      .optional()
      .describe('Where the slider was over time; a slide without a trace a person could have made fails'),
  }),
});

/** The `data` of `1101` (too many login attempts): whole seconds until the account's next attempt is judged. */
export interface TLoginBackoff {
  retryAfter: number;
}

export const ZLoginInfoRequest = z.object({ token: z.string().min(1) });
export const ZLoginInfo = z.object({
  id: z.string(),
  roles: z.array(z.string()),
  customerId: z.string().nullable(),
  custcode: z.string(),
});
