import { guarded } from '../admin/admin-shell';
import { CertificateDesignerPage } from './designer-page';
import { CertificateTemplatesPage } from './templates-page';

/** The administrators' certificate templates: the list and the designer (new and edit). */
export const TEMPLATE_PAGES = {
  CertificateTemplatesPage: guarded('certificates', CertificateTemplatesPage),
  CertificateDesignerPage: guarded('certificates', CertificateDesignerPage),
};
