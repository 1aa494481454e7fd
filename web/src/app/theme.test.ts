import { describe, expect, it } from 'vitest';
import { theme } from './theme';

/** WCAG 2.x contrast ratio of two opaque colours (#rrggbb), or of black at an alpha over white. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function blackOverWhite(rgba: string): string {
  const alpha = Number(/rgba\(0, 0, 0, ([\d.]+)\)/.exec(rgba)?.[1]);
  const channel = Math.round(255 * (1 - alpha))
    .toString(16)
    .padStart(2, '0');
  return `#${channel}${channel}${channel}`;
}

describe('theme colours pass WCAG AA (4.5:1)', () => {
  const token = theme.token ?? {};

  it.each(['colorPrimary', 'colorPrimaryHover', 'colorPrimaryActive'] as const)(
    '%s with white text on primary buttons',
    (name) => {
      expect(contrast(String(token[name]), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('links on white and on the page background', () => {
    expect(contrast(String(token.colorLink), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(String(token.colorLink), '#f5f7fb')).toBeGreaterThanOrEqual(4.5);
  });

  it('secondary (tertiary) text on white', () => {
    expect(contrast(blackOverWhite(String(token.colorTextTertiary)), '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});
