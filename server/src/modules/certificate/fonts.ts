import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import type { Font } from 'fontkit';
import type { AppContext } from '../../platform/context.js';

/**
 * The certificate fonts: TrueType files parsed once per process by upstream fontkit 2, handed to pdf-lib through
 * a small adapter. pdf-lib's bundled fontkit draws blank CJK glyphs when it subsets; fontkit 2 subsets them right,
 * but its subset answers `encode()` where pdf-lib asks `encodeStream()`.
 */

const require = createRequire(import.meta.url);
const DEFAULT_FONTS = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;

export type FontWeight = keyof typeof DEFAULT_FONTS;

/** A font file's bytes (what pdf-lib embeds) and its parsed fontkit font (what the adapter answers). */
export interface LoadedFont {
  bytes: Uint8Array;
  font: Font;
  /** Ascent and descent as fractions of the font size (descent positive). */
  ascent: number;
  descent: number;
}

const loaded = new Map<string, LoadedFont>();
const byBytes = new WeakMap<Uint8Array, Font>();

/** The file a weight is drawn with: the configured one, else Noto Sans SC. A regular file alone serves bold too. */
export function fontFileOf(ctx: Pick<AppContext, 'config'>, weight: FontWeight): string {
  const { fontFile, boldFontFile } = ctx.config.certificates;
  if (weight === 'bold') return boldFontFile ?? fontFile ?? require.resolve(DEFAULT_FONTS.bold);
  return fontFile ?? require.resolve(DEFAULT_FONTS.regular);
}

/** Reads and parses a font file once per process. */
export function loadFont(file: string): LoadedFont {
  const cached = loaded.get(file);
  if (cached) return cached;
  const buffer = readFileSync(file);
  const parsed = fontkit.create(buffer);
  if (!('layout' in parsed)) throw new Error(`${file} is a font collection, not one font`);
  const font = parsed;
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  byBytes.set(bytes, font);
  const entry: LoadedFont = {
    bytes,
    font,
    ascent: font.ascent / font.unitsPerEm,
    descent: Math.abs(font.descent) / font.unitsPerEm,
  };
  loaded.set(file, entry);
  return entry;
}

export const certificateFont = (ctx: Pick<AppContext, 'config'>, weight: FontWeight) =>
  loadFont(fontFileOf(ctx, weight));

type Listener = (value?: unknown) => void;

/** A stream-shaped answer of fontkit 2's `encode()`, the way pdf-lib reads a subset. */
function encodedStream(encode: () => Uint8Array) {
  const listeners: Record<string, Listener> = {};
  const stream = {
    on(event: string, listener: Listener) {
      listeners[event] = listener;
      return stream;
    },
  };
  queueMicrotask(() => {
    try {
      listeners.data?.(encode());
      listeners.end?.();
    } catch (error) {
      listeners.error?.(error);
    }
  });
  return stream;
}

function withStreamingSubsets(font: Font): Font {
  return new Proxy(font, {
    get(target, property, receiver) {
      if (property === 'createSubset') {
        return () => {
          const subset = target.createSubset();
          return Object.assign(subset, { encodeStream: () => encodedStream(() => subset.encode()) });
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * What `PDFDocument.registerFontkit` takes: `create()` answers the font already parsed when given a loaded font's
 * own bytes (no second parse of a 10 MB file per document), and parses anything else.
 */
export const fontkitForPdfLib = {
  create(data: Uint8Array) {
    const known = byBytes.get(data);
    if (known) return withStreamingSubsets(known);
    const parsed = fontkit.create(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    if (!('layout' in parsed)) throw new Error('a font collection, not one font');
    return withStreamingSubsets(parsed);
  },
};
