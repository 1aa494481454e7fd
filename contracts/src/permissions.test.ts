import { describe, expect, it } from 'vitest';
import { ROLES } from './constants.js';
import { hasEffectivePermission, hasPermission, permissionsOfRole, PERMISSIONS } from './permissions.js';

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

describe('custom roles', () => {
  const reader = { baseRole: ROLES.customerAdmin, permissions: ['log.view', 'statistics.view'], enabled: true };

  it('narrow the base role to the permissions chosen', () => {
    expect(hasEffectivePermission([ROLES.customerAdmin], 'log.view', reader)).toBe(true);
    expect(hasEffectivePermission([ROLES.customerAdmin], 'user.manage', reader)).toBe(false);
    expect(hasEffectivePermission([ROLES.customerAdmin], 'user.manage', null)).toBe(true);
  });

  it('never give a permission the base role lacks', () => {
    const greedy = { ...reader, permissions: ['customer.manage', 'log.view'] };
    expect(hasEffectivePermission([ROLES.customerAdmin], 'customer.manage', greedy)).toBe(false);
  });

  it('give nothing while switched off, and leave the other roles of the account alone', () => {
    const off = { ...reader, enabled: false };
    expect(hasEffectivePermission([ROLES.customerAdmin], 'log.view', off)).toBe(false);
    const head = { baseRole: ROLES.schoolAdmin, permissions: ['class.manage'], enabled: false };
    expect(hasEffectivePermission([ROLES.schoolAdmin, ROLES.teacher], 'course.author', head)).toBe(true);
    expect(hasEffectivePermission([ROLES.schoolAdmin, ROLES.teacher], 'classStats.view', head)).toBe(true);
    expect(hasEffectivePermission([ROLES.schoolAdmin, ROLES.teacher], 'class.manage', head)).toBe(false);
  });

  it('are managed by super administrators only', () => {
    expect(permissionsOfRole(ROLES.super)).toContain('role.manage');
    for (const role of [ROLES.customerAdmin, ROLES.subCustomerAdmin, ROLES.schoolAdmin, ROLES.organizeAdmin]) {
      expect(permissionsOfRole(role)).not.toContain('role.manage');
    }
  });
});
