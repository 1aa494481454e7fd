import { CertificateIssuancePage } from './issuance-page';
import { CertificateSearchPage } from './search-page';
import { MyCertificatesPage } from './my-certificates-page';

/** Issuing, reviewing and revoking certificates; a holder's own certificates; the public verification page. */
export const CERTIFICATE_PAGES = { CertificateIssuancePage, MyCertificatesPage, CertificateSearchPage };
