import { describe, expect, it } from 'vitest';
import { moveById, placeSection, sectionCanStep, stepSection, type Outline } from './outline-order';

const OUTLINE: Outline = [
  { id: 'a', sections: ['a1', 'a2'] },
  { id: 'b', sections: [] },
  { id: 'c', sections: ['c1'] },
];

describe('outline order', () => {
  it('moves an item onto the place of another, or by a number of places, and not past either end', () => {
    const ids = ['x', 'y', 'z'];
    const self = (id: string) => id;
    expect(moveById(ids, self, 'x', { overId: 'z' })).toEqual(['y', 'z', 'x']);
    expect(moveById(ids, self, 'z', { overId: 'x' })).toEqual(['z', 'x', 'y']);
    expect(moveById(ids, self, 'y', { delta: -1 })).toEqual(['y', 'x', 'z']);
    expect(moveById(ids, self, 'x', { delta: -1 })).toEqual(ids);
    expect(moveById(ids, self, 'z', { delta: 1 })).toEqual(ids);
    expect(moveById(ids, self, 'x', { overId: 'nowhere' })).toEqual(ids);
  });

  it('puts a section into a chapter at a place, taking it out of its own', () => {
    expect(placeSection(OUTLINE, 'a1', 'c', 0)).toEqual([
      { id: 'a', sections: ['a2'] },
      { id: 'b', sections: [] },
      { id: 'c', sections: ['a1', 'c1'] },
    ]);
    expect(placeSection(OUTLINE, 'a1', 'a', 9)).toEqual([{ id: 'a', sections: ['a2', 'a1'] }, OUTLINE[1], OUTLINE[2]]);
  });

  it('steps a section through every place: within its chapter, then into the chapters around it', () => {
    let outline = OUTLINE;
    const places: string[] = [];
    for (let i = 0; i < 4; i++) {
      outline = stepSection(outline, 'a2', 1);
      places.push(outline.map((c) => `${c.id}:${c.sections.join(',')}`).join(' '));
    }
    expect(places).toEqual(['a:a1 b:a2 c:c1', 'a:a1 b: c:a2,c1', 'a:a1 b: c:c1,a2', 'a:a1 b: c:c1,a2']);
    expect(sectionCanStep(outline, 'a2', 1)).toBe(false);
    expect(sectionCanStep(outline, 'a2', -1)).toBe(true);
    expect(sectionCanStep(OUTLINE, 'a1', -1)).toBe(false);
    expect(stepSection(OUTLINE, 'c1', -1)).toEqual([
      OUTLINE[0],
      { id: 'b', sections: ['c1'] },
      { id: 'c', sections: [] },
    ]);
  });
});
