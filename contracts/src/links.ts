import { z } from 'zod';
import { isHttpUrl, LINK_MAX } from './validation.js';

/** Every stored link that the app shows as a link: http or https only (see `isHttpUrl`). */
export const ZHttpUrl = z
  .string()
  .trim()
  .max(LINK_MAX)
  .refine(isHttpUrl, { message: 'Only http and https links are allowed' });

/** A link that may be left empty (a banner without one). */
export const ZOptionalHttpUrl = z.union([z.literal(''), ZHttpUrl]);
