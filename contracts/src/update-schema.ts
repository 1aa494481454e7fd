import { z } from 'zod';

type WithoutDefault<T> = T extends z.ZodDefault<infer Inner> ? Inner : T;
type UpdateShape<S extends z.ZodRawShape> = { [K in keyof S]: z.ZodOptional<WithoutDefault<S[K]>> };

/**
 * The request of an update built from the request of a creation: every field optional and none given a default.
 * zod's `.partial()` keeps `.default(…)`, so a field left out of an update would come back as its default and blank
 * what is stored; an update must change only the fields it was sent.
 */
export function updateOf<S extends z.ZodRawShape>(schema: z.ZodObject<S>): z.ZodObject<UpdateShape<S>> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [
      key,
      (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional(),
    ]),
  );
  return z.object(shape) as unknown as z.ZodObject<UpdateShape<S>>;
}
