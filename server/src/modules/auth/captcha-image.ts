import { randomInt } from 'node:crypto';
import sharp from 'sharp';

/** Geometry of the slider puzzle: the piece can travel 0–281 px, the spec's slider range. */
export const PUZZLE = { width: 348, height: 160, piece: 49, knob: 9 } as const;
export const PIECE_CANVAS = PUZZLE.piece + 2 * PUZZLE.knob;

/** No outline starts left of this, so the piece where the slider starts covers none of them. */
const FIRST_X = 20;
/** Room between two outlines' canvases. */
const GAP = 4;
/** Decoy outlines beside the hole: two or three. */
const MIN_DECOYS = 2;
const MAX_DECOYS = 3;

/** One side of the jigsaw square: a notch into it, flat, or a knob out of it. */
type Side = -1 | 0 | 1;
/** The sides of a jigsaw outline: top, right, bottom, left. */
export type Shape = readonly [Side, Side, Side, Side];

/**
 * The outline of a shape in its canvas, drawn clockwise: a square with a half-round knob or notch in the middle of
 * each side that has one (sweep 1 bulges out of a clockwise path, sweep 0 into it).
 */
function shapePath(shape: Shape): string {
  const { piece: s, knob: k } = PUZZLE;
  const o = k; // square offset inside the canvas, leaving room for the knobs
  const mid = o + s / 2;
  const arc = (side: Side, x: number, y: number) =>
    side === 0 ? '' : `A ${k} ${k} 0 1 ${side === 1 ? 1 : 0} ${x} ${y} `;
  const [top, right, bottom, left] = shape;
  return (
    `M ${o} ${o} H ${mid - k} ${arc(top, mid + k, o)}H ${o + s} ` +
    `V ${mid - k} ${arc(right, o + s, mid + k)}V ${o + s} ` +
    `H ${mid + k} ${arc(bottom, mid - k, o + s)}H ${o} ` +
    `V ${mid + k} ${arc(left, o, mid - k)}Z`
  );
}

const svg = (width: number, height: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

/** How many shapes grow out of this one (itself included): a notch can become flat or a knob, flat a knob. */
const grownShapes = (shape: Shape) => shape.reduce<number>((product, side) => product * (2 - side), 1);

/**
 * The piece's shape: each side at random, with at least two sides not flat (so it is told apart at a glance) and
 * room to grow three decoys out of it.
 */
function pieceShape(): Shape {
  for (;;) {
    const shape = Array.from({ length: 4 }, () => (randomInt(3) - 1) as Side) as unknown as Shape;
    if (shape.filter((side) => side !== 0).length >= 2 && grownShapes(shape) > MAX_DECOYS) return shape;
  }
}

/**
 * A decoy's shape: the piece's with one or more sides grown (a notch made flat or a knob, a flat side given a
 * knob), so the piece laid over a decoy stays inside it and looks as dark as a hole there; a person sees the extra
 * knob. Different from the piece and from the other decoys.
 */
function decoyShape(piece: Shape, taken: Shape[]): Shape {
  for (;;) {
    const shape = piece.map((side) =>
      side < 1 && randomInt(2) === 0 ? ((side + 1 + randomInt(1 - side)) as Side) : side,
    );
    if (taken.every((other) => other.some((side, i) => side !== shape[i]))) return shape as unknown as Shape;
  }
}

/** `count` left edges for outlines in one row, none overlapping, each at least FIRST_X. */
function slots(count: number): number[] {
  const step = PIECE_CANVAS + GAP;
  const free = PUZZLE.width - PIECE_CANVAS - FIRST_X - (count - 1) * step;
  return Array.from({ length: count }, () => randomInt(free + 1))
    .sort((a, b) => a - b)
    .map((offset, i) => FIRST_X + offset + i * step);
}

/** A random abstract background: a gradient with scattered shapes, so no two puzzles look alike. */
function backgroundSvg(): Buffer {
  const hue = randomInt(360);
  const shapes = Array.from({ length: 14 }, () => {
    const h = (hue + randomInt(120)) % 360;
    const x = randomInt(PUZZLE.width);
    const y = randomInt(PUZZLE.height);
    const r = 8 + randomInt(36);
    return randomInt(2) === 0
      ? `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${h},70%,${35 + randomInt(40)}%)" opacity="0.75"/>`
      : `<rect x="${x}" y="${y}" width="${r * 2}" height="${r}" transform="rotate(${randomInt(90)} ${x} ${y})" fill="hsl(${h},60%,${30 + randomInt(45)}%)" opacity="0.7"/>`;
  }).join('');
  return svg(
    PUZZLE.width,
    PUZZLE.height,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
      `<stop offset="0" stop-color="hsl(${hue},55%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 150) % 360},55%,35%)"/>` +
      `</linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}`,
  );
}

/**
 * An outline at (x, y) of the base: filled with a flat dark colour of its own, which keeps nothing of the picture
 * under it, and rimmed in white.
 */
function outlineSvg(shape: Shape, x: number, y: number): string {
  const fill = `hsl(${randomInt(360)},${randomInt(25)}%,${14 + randomInt(22)}%)`;
  return `<path transform="translate(${x} ${y})" d="${shapePath(shape)}" fill="${fill}" stroke="rgba(255,255,255,0.75)" stroke-width="2"/>`;
}

/** Adds noise of ±`amount` to every colour channel of raw pixels (alpha untouched). */
function addNoise(pixels: Buffer, channels: number, amount: number): Buffer {
  for (let i = 0; i < pixels.length; i++) {
    if (i % channels === 3) continue;
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + randomInt(-amount, amount + 1)));
  }
  return pixels;
}

/** A brightness factor a little off 1 (0.9–1.1, never 1), so the piece and the picture never match exactly. */
const slightly = () => (randomInt(2) === 0 ? 0.9 : 1.02) + randomInt(9) / 100;

export interface Puzzle {
  /** Where the piece fits: the left edge of its canvas, in pixels of the base image. */
  x: number;
  y: number;
  baseImg: string;
  jigsawImg: string;
}

const dataUrl = (type: string, image: Buffer) => `data:${type};base64,${image.toString('base64')}`;

/**
 * Draws a new puzzle: a background with the jigsaw-shaped hole and two or three decoy outlines in the piece's row,
 * and the piece cut from the background where the hole is. Nothing of the picture under an outline is kept, the
 * decoys are the piece's shape with a side grown, the piece and the base are brightened or darkened a little each
 * and carry noise of their own, and the base is a JPEG: comparing the two images, or looking for the darkest
 * piece-shaped spot, does not tell the hole from a decoy. A person tells them by their outline.
 */
export async function drawPuzzle(): Promise<Puzzle> {
  const decoys = randomInt(MIN_DECOYS, MAX_DECOYS + 1);
  const xs = slots(decoys + 1);
  const x = xs.splice(randomInt(xs.length), 1)[0]!;
  const y = randomInt(PUZZLE.height - PIECE_CANVAS + 1);
  const shape = pieceShape();
  const shapes: Shape[] = [shape];
  for (let i = 0; i < decoys; i++) shapes.push(decoyShape(shape, shapes));

  const background = await sharp(backgroundSvg()).png().toBuffer();
  const cut = await sharp(background)
    .extract({ left: x, top: y, width: PIECE_CANVAS, height: PIECE_CANVAS })
    .modulate({ brightness: slightly() })
    .ensureAlpha()
    .raw()
    .toBuffer();
  const piece = await sharp(addNoise(cut, 4, 6), { raw: { width: PIECE_CANVAS, height: PIECE_CANVAS, channels: 4 } })
    .composite([
      { input: svg(PIECE_CANVAS, PIECE_CANVAS, `<path d="${shapePath(shape)}" fill="#fff"/>`), blend: 'dest-in' },
      {
        input: svg(
          PIECE_CANVAS,
          PIECE_CANVAS,
          `<path d="${shapePath(shape)}" fill="none" stroke="rgba(255,255,255,0.9)" stroke-width="2"/>`,
        ),
        blend: 'over',
      },
    ])
    .png()
    .toBuffer();

  const outlines = [outlineSvg(shape, x, y), ...xs.map((left, i) => outlineSvg(shapes[i + 1]!, left, y))];
  const drawn = await sharp(background)
    .composite([{ input: svg(PUZZLE.width, PUZZLE.height, outlines.join('')) }])
    .modulate({ brightness: slightly() })
    .removeAlpha()
    .raw()
    .toBuffer();
  const base = await sharp(addNoise(drawn, 3, 10), { raw: { width: PUZZLE.width, height: PUZZLE.height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { x, y, baseImg: dataUrl('image/jpeg', base), jigsawImg: dataUrl('image/png', piece) };
}
