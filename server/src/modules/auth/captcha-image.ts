import { randomInt } from 'node:crypto';
import sharp from 'sharp';

/** Geometry of the slider puzzle: the piece can travel 0–281 px, the spec's slider range. */
export const PUZZLE = { width: 348, height: 160, piece: 49, knob: 9 } as const;
export const PIECE_CANVAS = PUZZLE.piece + 2 * PUZZLE.knob;

/** A square with a round knob on its top and right side: the jigsaw outline, drawn in the piece's canvas. */
function piecePath(): string {
  const { piece: s, knob: k } = PUZZLE;
  const o = k; // square offset inside the canvas, leaving room for the knobs
  const mid = o + s / 2;
  return [
    `M ${o} ${o}`,
    `H ${mid - k}`,
    `A ${k} ${k} 0 1 1 ${mid + k} ${o}`,
    `H ${o + s}`,
    `V ${mid - k}`,
    `A ${k} ${k} 0 1 1 ${o + s} ${mid + k}`,
    `V ${o + s}`,
    `H ${o}`,
    'Z',
  ].join(' ');
}

function shapeSvg(fill: string, stroke = 'none'): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIECE_CANVAS}" height="${PIECE_CANVAS}">` +
      `<path d="${piecePath()}" fill="${fill}" stroke="${stroke}" stroke-width="2"/></svg>`,
  );
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
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PUZZLE.width}" height="${PUZZLE.height}">` +
      `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
      `<stop offset="0" stop-color="hsl(${hue},55%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 150) % 360},55%,35%)"/>` +
      `</linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`,
  );
}

export interface Puzzle {
  /** Where the piece fits: the left edge of its canvas, in pixels of the base image. */
  x: number;
  y: number;
  baseImg: string;
  jigsawImg: string;
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** Draws a new puzzle: the background with a jigsaw-shaped hole, and the piece cut from the same place. */
export async function drawPuzzle(): Promise<Puzzle> {
  const maxX = PUZZLE.width - PIECE_CANVAS;
  const x = 60 + randomInt(maxX - 60 + 1);
  const y = randomInt(PUZZLE.height - PIECE_CANVAS + 1);
  const background = await sharp(backgroundSvg()).png().toBuffer();
  const piece = await sharp(background)
    .extract({ left: x, top: y, width: PIECE_CANVAS, height: PIECE_CANVAS })
    .composite([
      { input: shapeSvg('#fff'), blend: 'dest-in' },
      { input: shapeSvg('none', 'rgba(255,255,255,0.9)'), blend: 'over' },
    ])
    .png()
    .toBuffer();
  const base = await sharp(background)
    .composite([{ input: shapeSvg('rgba(0,0,0,0.55)', 'rgba(255,255,255,0.6)'), left: x, top: y }])
    .png()
    .toBuffer();
  return { x, y, baseImg: dataUrl(base), jigsawImg: dataUrl(piece) };
}
