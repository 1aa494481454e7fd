import { z } from 'zod';
import { isHttpUrl } from './validation.js';

/** The longest stored link. */
export const LINK_MAX = 500;

/** Every stored link that the app shows as a link: http or https only (see `isHttpUrl`). */
export const ZHttpUrl = z
  .string()
  .trim()
  .max(LINK_MAX)
  .refine(isHttpUrl, { message: 'Only http and https links are allowed' });

/** A link that may be left empty (a banner without one). */
export const ZOptionalHttpUrl = z.union([z.literal(''), ZHttpUrl]);
