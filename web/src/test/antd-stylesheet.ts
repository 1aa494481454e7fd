/** `virtual:antd-stylesheet` in the tests: none, so the component library generates its styles (web/vite.config.ts). */
const url: string | null = null;
export default url;
