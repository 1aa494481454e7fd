import { guarded } from './admin-shell';
import { AdminUsersPage } from './admin-users-page';
import { ClassesPage, HistoryClassesPage } from './classes-page';
import { ContainerTypesPage } from './container-types-page';
import { CustomersPage, SubCustomersPage } from './customers-page';
import { CustomRolesPage } from './custom-roles-page';
import { InstitutionHomePage } from './institution-home-page';
import { LogsPage } from './logs-page';
import { ModulesPage } from './modules-page';
import { StudentsPage, TeachersPage } from './people-page';
import { PeriodsPage } from './periods-page';
import { SchoolsPage } from './schools-page';
import { StatisticsPage } from './statistics-page';
import { SystemConfigPage } from './system-config-page';

/** Every administration screen behind its permission, loaded together as one chunk when the first of them opens. */
export const ADMIN_PAGES = {
  CustomersPage: guarded('customers', CustomersPage),
  SubCustomersPage: guarded('subCustomers', SubCustomersPage),
  SchoolsPage: guarded('schools', SchoolsPage),
  PeriodsPage: guarded('periods', PeriodsPage),
  LogsPage: guarded('logs', LogsPage),
  ClassesPage: guarded('classes', ClassesPage),
  HistoryClassesPage: guarded('historyClasses', HistoryClassesPage),
  TeachersPage: guarded('teachers', TeachersPage),
  StudentsPage: guarded('students', StudentsPage),
  StatisticsPage: guarded('statistics', StatisticsPage),
  InstitutionHomePage: guarded('institutionHome', InstitutionHomePage),
  AdminUsersPage: guarded('adminUsers', AdminUsersPage),
  CustomRolesPage: guarded('customRoles', CustomRolesPage),
  SystemConfigPage: guarded('systemConfig', SystemConfigPage),
  ContainerTypesPage: guarded('containerTypes', ContainerTypesPage),
  ModulesPage: guarded('modules', ModulesPage),
};
