import { describe, expect, it } from 'vitest';
import { ROLES } from './constants.js';
import { hasPermission, PERMISSIONS } from './permissions.js';

describe('permission table', () => {
  it('gives the outbox to super administrators only', () => {
    expect(hasPermission([ROLES.super], 'outbox.view')).toBe(true);
    for (const role of [ROLES.customerAdmin, ROLES.schoolAdmin, ROLES.teacher, ROLES.student]) {
      expect(hasPermission([role], 'outbox.view')).toBe(false);
    }
  });

  it('lets teachers and students learn but not administer', () => {
    expect(hasPermission([ROLES.student], 'course.learn')).toBe(true);
    expect(hasPermission([ROLES.teacher], 'school.manage')).toBe(false);
    expect(hasPermission([ROLES.student], 'student.manage')).toBe(false);
    expect(hasPermission([], 'course.learn')).toBe(false);
  });

  it('lets a school administrator manage classes but not schools or customers', () => {
    expect(hasPermission([ROLES.schoolAdmin], 'class.manage')).toBe(true);
    expect(hasPermission([ROLES.schoolAdmin], 'school.manage')).toBe(false);
    expect(hasPermission([ROLES.schoolAdmin], 'customer.manage')).toBe(false);
  });

  it('names only known roles', () => {
    const known = new Set<string>(Object.values(ROLES));
    for (const roles of Object.values(PERMISSIONS)) for (const role of roles) expect(known.has(role)).toBe(true);
  });
});
