import { AddressRangesPage } from './address-ranges-page';
import { guarded } from './admin-shell';
import { CertificationsPage } from './certifications-page';
import { IdentityProvidersPage } from './identity-providers-page';
import { OutboxPage } from './outbox-page';

/** The identity and security screens behind their permissions, one chunk loaded when the first opens. */
export const SECURITY_PAGES = {
  OutboxPage: guarded('outbox', OutboxPage),
  CertificationsPage: guarded('certifications', CertificationsPage),
  AddressRangesPage: guarded('addressRanges', AddressRangesPage),
  IdentityProvidersPage: guarded('identityProviders', IdentityProvidersPage),
};
