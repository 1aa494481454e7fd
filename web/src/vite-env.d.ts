interface ImportMetaEnv {
  /** Client id sent to single sign-on (`/pjedu/login?clientId=`). */
  readonly VITE_SSO_CLIENT_ID?: string;
  /** Address the QR code of the system notice points to (the staff contact page). */
  readonly VITE_STAFF_CONTACT_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
