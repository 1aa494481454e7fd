import { Readable } from 'node:stream';
import { DATASET_LIMITS, type TAnnotationSummary, type TImageAnnotation } from '@aiedu/contracts';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { datasetVersions } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import type { DatasetRow } from './dataset-access.js';
import type { VersionRow } from './dataset.repository.js';
import { annotationKey } from './dataset-storage.js';

/** The parts of a COCO file that boxes need: images, their annotations' boxes and the categories. */
const ZCoco = z.object({
  images: z.array(
    z.object({
      id: z.union([z.number(), z.string()]),
      file_name: z.string().min(1).max(1000),
      width: z.number().positive().optional(),
      height: z.number().positive().optional(),
    }),
  ),
  annotations: z.array(
    z.object({
      image_id: z.union([z.number(), z.string()]),
      category_id: z.union([z.number(), z.string()]),
      bbox: z.tuple([z.number(), z.number(), z.number().min(0), z.number().min(0)]),
    }),
  ),
  categories: z
    .array(z.object({ id: z.union([z.number(), z.string()]), name: z.string().trim().min(1).max(100) }))
    .min(1)
    .max(DATASET_LIMITS.annotationCategories),
});

/**
 * What is stored of an annotation: per image file name its size and boxes `[x, y, w, h, category index]`, so one
 * image's boxes are found without reading the original file again.
 */
interface StoredAnnotation {
  categories: string[];
  images: Record<
    string,
    { width: number | null; height: number | null; boxes: [number, number, number, number, number][] }
  >;
}

const invalid = (message: string) =>
  new AppError('BAD_REQUEST', { issues: [{ path: 'body.file', message: `Not a COCO annotation file: ${message}` }] });

/** Parses and checks a COCO file: JSON, the three arrays, boxes of four numbers, known images and categories. */
export function parseCoco(bytes: Buffer): StoredAnnotation & { annotations: number } {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid('not JSON');
  }
  const parsed = ZCoco.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.join('.')}: ${issue.message}`);
  }
  const coco = parsed.data;
  const categoryIndex = new Map(coco.categories.map((c, i) => [String(c.id), i]));
  // Keys are file names from the upload: no prototype for one named `__proto__` to reach.
  const images: StoredAnnotation['images'] = Object.create(null);
  const byId = new Map<string, string>();
  for (const image of coco.images) {
    byId.set(String(image.id), image.file_name);
    images[image.file_name] = { width: image.width ?? null, height: image.height ?? null, boxes: [] };
  }
  for (const [i, annotation] of coco.annotations.entries()) {
    const fileName = byId.get(String(annotation.image_id));
    const category = categoryIndex.get(String(annotation.category_id));
    if (fileName === undefined) throw invalid(`annotations.${i}.image_id: no such image`);
    if (category === undefined) throw invalid(`annotations.${i}.category_id: no such category`);
    images[fileName]!.boxes.push([...annotation.bbox, category]);
  }
  return { categories: coco.categories.map((c) => c.name), images, annotations: coco.annotations.length };
}

/**
 * Sets a ready version's annotation file (COCO JSON, at most 100 MB). A published dataset keeps the annotation of
 * what it published: only a version uploaded after publishing may still receive one (3201).
 */
export async function setAnnotation(
  ctx: AppContext,
  dataset: DatasetRow,
  version: VersionRow,
  file: { filename: string; bytes: Buffer },
): Promise<TAnnotationSummary> {
  if (dataset.publishedAt && version.createdAt <= dataset.publishedAt) throw new AppError('DATASET_PUBLISHED_FINAL');
  const parsed = parseCoco(file.bytes);
  const stored: StoredAnnotation = { categories: parsed.categories, images: parsed.images };
  const key = annotationKey(version);
  const body = Buffer.from(JSON.stringify(stored));
  await ctx.storage.put(key, Readable.from([body]), { maxBytes: body.length });
  await ctx.db
    .update(datasetVersions)
    .set({ annotationKey: key, annotationName: file.filename.slice(0, 200), annotationBytes: file.bytes.length })
    .where(eq(datasetVersions.id, version.id));
  cache.delete(key);
  return {
    versionId: version.id,
    name: file.filename,
    bytes: file.bytes.length,
    images: Object.keys(parsed.images).length,
    annotations: parsed.annotations,
    categories: parsed.categories,
  };
}

/** The last few annotations read, by key: a viewer walks through one version's images, one request each. */
const cache = new Map<string, StoredAnnotation>();
const CACHED = 4;

async function storedAnnotation(ctx: AppContext, key: string): Promise<StoredAnnotation> {
  const kept = cache.get(key);
  if (kept) return kept;
  const { stream } = await ctx.storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as StoredAnnotation;
  cache.set(key, value);
  if (cache.size > CACHED) cache.delete(cache.keys().next().value!);
  return value;
}

/**
 * The boxes of one image of a version: found by its path, or else by its file name alone (COCO files often name
 * images without their folder). An image without boxes, or a version without annotation, answers no boxes.
 */
export async function imageBoxes(ctx: AppContext, version: VersionRow, path: string): Promise<TImageAnnotation> {
  const none = { path, width: null, height: null, boxes: [] };
  if (!version.annotationKey) return none;
  const stored = await storedAnnotation(ctx, version.annotationKey);
  const name = [path, path.split('/').at(-1)!].find((one) => Object.hasOwn(stored.images, one));
  const image = name === undefined ? undefined : stored.images[name];
  if (!image) return none;
  return {
    path,
    width: image.width,
    height: image.height,
    boxes: image.boxes.map(([x, y, w, h, c]) => ({ x, y, w, h, category: stored.categories[c] ?? '' })),
  };
}
