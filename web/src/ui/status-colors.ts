/**
 * Solid tag colours whose white text keeps a 4.5:1 contrast (WCAG AA): antd's status presets (`success`,
 * `processing`, `error`) draw light text on a pale background, which does not.
 */
export const STATUS_COLORS = {
  success: '#237804',
  processing: '#1f5fcc',
  error: '#a8071a',
  warning: '#ad4e00',
  neutral: '#595959',
} as const;
