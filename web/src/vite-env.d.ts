interface ImportMetaEnv {
  /** Client id sent to single sign-on (`/pjedu/login?clientId=`). */
  readonly VITE_SSO_CLIENT_ID?: string;
  /** Address the QR code of the system notice points to (the staff contact page). */
  readonly VITE_STAFF_CONTACT_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** The address of the component library's stylesheet in the build; null on the dev server (web/vite.config.ts). */
declare module 'virtual:antd-stylesheet' {
  const url: string | null;
  export default url;
}
