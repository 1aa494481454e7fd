import { randomInt } from 'node:crypto';
import sharp from 'sharp';

/** Segments of a seven-segment digit (a–g) as line coordinates in a 20×36 cell. */
const SEGMENTS: Record<string, [number, number, number, number]> = {
  a: [3, 2, 17, 2],
  b: [18, 3, 18, 17],
  c: [18, 19, 18, 33],
  d: [3, 34, 17, 34],
  e: [2, 19, 2, 33],
  f: [2, 3, 2, 17],
  g: [3, 18, 17, 18],
};
const DIGITS = ['abcdef', 'bc', 'abged', 'abgcd', 'fgbc', 'afgcd', 'afgedc', 'abc', 'abcdefg', 'abcdfg'];

/**
 * The classic image code of the legacy form login: four digits drawn as strokes (no font needed on the server),
 * each shifted and tilted, over crossing noise lines.
 */
export async function drawImageCode(code: string): Promise<Buffer> {
  const width = 120;
  const height = 44;
  const digits = [...code]
    .map((ch, i) => {
      const x = 10 + i * 26 + randomInt(4);
      const y = 3 + randomInt(4);
      const tilt = randomInt(-12, 13);
      const lines = [...DIGITS[Number(ch)]!]
        .map((s) => {
          const [x1, y1, x2, y2] = SEGMENTS[s]!;
          return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
        })
        .join('');
      const hue = randomInt(360);
      return `<g transform="translate(${x} ${y}) rotate(${tilt} 10 18) scale(0.95)" stroke="hsl(${hue},70%,32%)" stroke-width="3.2" stroke-linecap="round">${lines}</g>`;
    })
    .join('');
  const noise = Array.from(
    { length: 6 },
    () =>
      `<line x1="${randomInt(width)}" y1="${randomInt(height)}" x2="${randomInt(width)}" y2="${randomInt(height)}" stroke="hsl(${randomInt(360)},50%,60%)" stroke-width="1"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4f6f8"/>${noise}${digits}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
