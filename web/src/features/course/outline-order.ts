import type { TOutlineRequest } from '@aiedu/contracts';

/** The order of a course's outline: chapters with the ids of their sections, as `PUT …/:id/outline` takes it. */
export type Outline = TOutlineRequest['chapters'];

/** The outline of an editable course as it stands. */
export function outlineOf(chapters: readonly { id: string; sections: readonly { id: string }[] }[]): Outline {
  return chapters.map((c) => ({ id: c.id, sections: c.sections.map((s) => s.id) }));
}

/** The list with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** The list with the item `id` moved onto the place of `overId`, or by `delta` places; unchanged when it cannot. */
export function moveById<T>(list: readonly T[], idOf: (item: T) => string, id: string, target: Target): T[] {
  const from = list.findIndex((item) => idOf(item) === id);
  const to = 'overId' in target ? list.findIndex((item) => idOf(item) === target.overId) : from + target.delta;
  if (from < 0 || to < 0 || to >= list.length || from === to) return [...list];
  return moveItem(list, from, to);
}

export type Target = { overId: string } | { delta: number };

/** The chapter holding a section. */
export const chapterOf = (outline: Outline, sectionId: string) => outline.find((c) => c.sections.includes(sectionId));

/** The outline with a section put into a chapter at an index (the chapter's end when past it). */
export function placeSection(outline: Outline, sectionId: string, chapterId: string, index: number): Outline {
  return outline.map((c) => {
    const sections = c.sections.filter((id) => id !== sectionId);
    if (c.id !== chapterId) return { id: c.id, sections };
    sections.splice(Math.min(Math.max(index, 0), sections.length), 0, sectionId);
    return { id: c.id, sections };
  });
}

/**
 * The outline with a section moved one place up or down. From the top of its chapter it goes to the end of the
 * chapter before, from the bottom to the start of the next: every place of the outline is reached with these steps.
 */
export function stepSection(outline: Outline, sectionId: string, delta: -1 | 1): Outline {
  const chapterIndex = outline.findIndex((c) => c.sections.includes(sectionId));
  const chapter = outline[chapterIndex];
  if (!chapter) return outline;
  const index = chapter.sections.indexOf(sectionId) + delta;
  if (index >= 0 && index < chapter.sections.length) return placeSection(outline, sectionId, chapter.id, index);
  const neighbour = outline[chapterIndex + delta];
  if (!neighbour) return outline;
  return placeSection(outline, sectionId, neighbour.id, delta < 0 ? neighbour.sections.length : 0);
}

/** Whether a section can step up or down (the first section of the first chapter goes no higher). */
export function sectionCanStep(outline: Outline, sectionId: string, delta: -1 | 1): boolean {
  return stepSection(outline, sectionId, delta) !== outline;
}

/** Whether two outlines are the same order. */
export const sameOutline = (a: Outline, b: Outline) => JSON.stringify(a) === JSON.stringify(b);
