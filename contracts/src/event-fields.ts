import { z } from 'zod';

/** Text fields of the event payloads: optional text not only spaces, and required text trimmed. */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => v === '' || v.trim() !== '', 'not only spaces');
export const required = (max: number) => z.string().trim().min(1).max(max);
