import { LIMITS } from '@aiedu/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawPuzzle, PIECE_CANVAS, PUZZLE } from './captcha-image.js';
import { CAPTCHA_RULES } from './captcha.service.js';

interface Pixels {
  data: Buffer;
  width: number;
}

async function pixels(dataUrl: string): Promise<Pixels> {
  const image = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width };
}

/**
 * Where an attacker who compares the two images puts the piece: every x of the slider's range is scored over the
 * piece's opaque pixels (its white rim left out) in the piece's row of the base, by
 * - `diff`: how far the base is from the piece there, allowing for the hole being a darker copy of the picture
 *   (the best factor for each x, by least squares);
 * - `dark`: how dark the base is there, the hole being the darkest piece-shaped spot.
 */
function attack(base: Pixels, piece: Pixels, y: number) {
  const mask: [number, number][] = [];
  for (let j = 0; j < PIECE_CANVAS; j++) {
    for (let i = 0; i < PIECE_CANVAS; i++) {
      const k = (j * piece.width + i) * 4;
      const rim = piece.data[k]! > 230 && piece.data[k + 1]! > 230 && piece.data[k + 2]! > 230;
      if (piece.data[k + 3]! >= 250 && !rim) mask.push([i, j]);
    }
  }
  const best = { diff: { x: 0, score: Infinity }, dark: { x: 0, score: Infinity } };
  for (let x = LIMITS.sliderMin; x <= LIMITS.sliderMax; x++) {
    let baseByPiece = 0;
    let pieceSquared = 0;
    let baseSquared = 0;
    let brightness = 0;
    for (const [i, j] of mask) {
      const b = ((y + j) * base.width + x + i) * 4;
      const p = (j * piece.width + i) * 4;
      for (let c = 0; c < 3; c++) {
        baseByPiece += base.data[b + c]! * piece.data[p + c]!;
        pieceSquared += piece.data[p + c]! ** 2;
        baseSquared += base.data[b + c]! ** 2;
        brightness += base.data[b + c]!;
      }
    }
    const diff = baseSquared - baseByPiece ** 2 / pieceSquared;
    if (diff < best.diff.score) best.diff = { x, score: diff };
    if (brightness < best.dark.score) best.dark = { x, score: brightness };
  }
  return { diff: best.diff.x, dark: best.dark.x };
}

describe('the slider puzzle', () => {
  it('does not give its answer away to a comparison of the two images (fewer than half of 60 puzzles)', async () => {
    const puzzles = 60;
    const found = { diff: 0, dark: 0 };
    for (let n = 0; n < puzzles; n++) {
      const puzzle = await drawPuzzle();
      expect(puzzle.x).toBeGreaterThanOrEqual(LIMITS.sliderMin);
      expect(puzzle.x).toBeLessThanOrEqual(PUZZLE.width - PIECE_CANVAS);
      const guess = attack(await pixels(puzzle.baseImg), await pixels(puzzle.jigsawImg), puzzle.y);
      if (Math.abs(guess.diff - puzzle.x) <= CAPTCHA_RULES.toleranceX) found.diff++;
      if (Math.abs(guess.dark - puzzle.x) <= CAPTCHA_RULES.toleranceX) found.dark++;
    }
    // Chance among the hole and its two or three decoys is about 2 in 7; the puzzles without decoys gave the
    // answer to both comparisons every time.
    expect(found.diff).toBeLessThan(puzzles / 2);
    expect(found.dark).toBeLessThan(puzzles / 2);
  });
});
