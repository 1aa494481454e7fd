import type { ThemeConfig } from 'antd';

/**
 * The one antd theme. The brand blue keeps 5.9:1 contrast with white text (WCAG AA needs 4.5:1);
 * hover and active states get darker, never lighter, so they keep it too. antd's default grey for
 * secondary text (#8c8c8c, 3.4:1) and placeholders (#bfbfbf, 1.9:1) fail AA, hence the darker tertiary text, also for
 * placeholders (a select's placeholder stands for its value); so does its red (#ff4d4f, 3.2:1) for
 * danger buttons and errors, hence a darker red (6.0:1).
 * Control heights: large 48, middle 40 (the learner hit target), small 32; "mini" (24) lives in ui/button.
 */
export const BRAND_COLOR = '#1f5fcc';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_COLOR,
    colorPrimaryHover: '#1a51b0',
    colorPrimaryActive: '#153f8a',
    colorLink: BRAND_COLOR,
    colorLinkHover: '#1a51b0',
    colorLinkActive: '#153f8a',
    colorInfo: BRAND_COLOR,
    colorError: '#cf1322',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.62)',
    borderRadius: 8,
    controlHeight: 40,
    controlHeightLG: 48,
    controlHeightSM: 32,
    fontFamily:
      "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Hiragino Sans', 'Yu Gothic', 'Noto Sans CJK SC', sans-serif",
  },
  components: {
    Button: { fontWeight: 500, primaryShadow: 'none', defaultShadow: 'none', dangerShadow: 'none' },
    Carousel: { dotWidth: 24, dotActiveWidth: 40, dotHeight: 6 },
  },
};
