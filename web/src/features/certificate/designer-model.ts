import {
  CERT_ELEMENTS,
  CERT_PAGE,
  type CertElement,
  type CertLayout,
  type Language,
  type TCertDesign,
  type TCertElementStyle,
} from '@aiedu/contracts';

/** The designer's page: where each part sits on a portrait or landscape certificate by default. */

type Box = Pick<TCertElementStyle, 'x' | 'y' | 'width' | 'fontSize' | 'align' | 'font'>;

const style = (box: Box, extra: Partial<TCertElementStyle> = {}): TCertElementStyle => ({
  color: '#222222',
  visible: true,
  label: '',
  ...box,
  ...extra,
});

/** A centred layout: the title on top, the name and the content in the middle, number, date and seal below. */
export function defaultElements(layout: CertLayout): TCertDesign['elements'] {
  const { width: w, height: h } = CERT_PAGE[layout];
  const margin = layout === 'portrait' ? 75 : 115;
  const body = w - 2 * margin;
  const line = (y: number, fontSize: number, font: 'regular' | 'bold' = 'regular') => ({
    x: margin,
    y: Math.round(h * y),
    width: body,
    fontSize,
    align: 'center' as const,
    font,
  });
  return {
    title: style(line(0.16, 40, 'bold'), { color: '#8a6d1d' }),
    name: style(line(0.34, 30, 'bold')),
    content: style(line(0.44, 18)),
    number: style(
      { x: margin, y: Math.round(h * 0.8), width: 260, fontSize: 12, align: 'left', font: 'regular' },
      { label: 'No.' },
    ),
    date: style({
      x: w - margin - 220,
      y: Math.round(h * 0.8),
      width: 220,
      fontSize: 14,
      align: 'right',
      font: 'regular',
    }),
    seal: style({
      x: w - margin - 150,
      y: Math.round(h * 0.8) - 150,
      width: 120,
      fontSize: 12,
      align: 'center',
      font: 'regular',
    }),
    qr: style({ x: margin, y: Math.round(h * 0.8) - 110, width: 90, fontSize: 12, align: 'left', font: 'regular' }),
  };
}

export function defaultDesign(language: Language): TCertDesign {
  return {
    layout: 'landscape',
    backgroundKey: null,
    sealKey: null,
    title: '',
    content: '',
    language,
    elements: defaultElements('landscape'),
  };
}

/** Keeps a part's box on the page: its corner stays inside, its width no wider than what is left. */
export function clampElement(element: TCertElementStyle, layout: CertLayout): TCertElementStyle {
  const page = CERT_PAGE[layout];
  const width = Math.max(10, Math.min(Math.round(element.width), page.width));
  const x = Math.max(0, Math.min(Math.round(element.x), page.width - width));
  const y = Math.max(0, Math.min(Math.round(element.y), page.height - 10));
  return { ...element, x, y, width };
}

/**
 * Parts whose box is as tall as it is wide (images); text parts are lines 1.5 × their font size high, as the PDF
 * draws them (the content shows room for three).
 */
export const SQUARE_ELEMENTS: readonly CertElement[] = ['seal', 'qr'];

export function boxHeight(key: CertElement, element: TCertElementStyle): number {
  if (SQUARE_ELEMENTS.includes(key)) return element.width;
  return Math.round(element.fontSize * 1.5 * (key === 'content' ? 3 : 1));
}

/** The parts in drawing order, for lists and the keyboard's tab order. */
export const ELEMENT_ORDER = CERT_ELEMENTS;

/** A number rule's example, with today's date: `AB` + `20261128` + `0001`. */
export function exampleNumber(prefix: string, digits: number, today = new Date()): string {
  const date = `${today.getFullYear()}${String(today.getMonth() + 1).padStart(2, '0')}${String(today.getDate()).padStart(2, '0')}`;
  return `${prefix}${date}${'1'.padStart(digits, '0')}`;
}
