import { describe, expect, it } from 'vitest';
import {
  ADMIN_SET_PASSWORD_RULE,
  BATCH_PASSWORD,
  BATCH_USERNAME,
  COURSE_CODE,
  CUSTOMER_CODE,
  EMAIL,
  IMAGE_TYPES,
  IMAGE_TYPES_BMP,
  LIMITS,
  PHONE,
  SIMPLE_PASSWORD,
  USERNAME,
  VERSION_SEGMENT_INPUT,
  WEAK_PASSWORD,
  hasExtension,
  isContact,
  isHttpUrl,
  isSafeName,
  isStrongPassword,
  isValidPassword,
  normalizeContact,
  ownPasswordRule,
} from './validation.js';
import { ROLES } from './constants.js';

const table = (name: string, test: (v: string) => boolean, accepted: string[], refused: string[]) =>
  describe(name, () => {
    it.each(accepted)('accepts %j', (v) => expect(test(v)).toBe(true));
    it.each(refused)('refuses %j', (v) => expect(test(v)).toBe(false));
  });

table(
  'weak password (6–20 visible ASCII)',
  (v) => WEAK_PASSWORD.test(v),
  ['abcdef', '123456', '!@#$%^', 'a'.repeat(20), 'Pass~word_1'],
  ['abcde', 'a'.repeat(21), 'abc def', 'pässwort', '密码密码密码', 'tab\there', ''],
);

table(
  'simple password (6–20, lower + upper + digit)',
  (v) => SIMPLE_PASSWORD.test(v),
  ['Abcde1', 'Student2026', 'aB3aB3aB3aB3aB3aB3aB', 'Pass@2026'],
  ['abcde1', 'ABCDE1', 'Abcdef', 'Ab1', 'Abcde1'.repeat(4), 'Abc de1', 'Ab1密码密码'],
);

table(
  'strong password (8–20, three of four classes, no spaces)',
  isStrongPassword,
  ['Abcdefg1', 'abcdefg1!', 'ABCDEFG1!', 'Super@2026', 'aB!aB!aB!', 'x'.repeat(17) + 'A1!'],
  ['Abcdef1', 'abcdefgh1', 'ABCDEFGH', '!!!!!!!!1', 'Abcd efg1', 'Abcdefg1'.repeat(3), 'Ab1!密码密码码'],
);

describe('isValidPassword', () => {
  it('applies the rule of the form in use', () => {
    expect(isValidPassword('abcdef', 'weak')).toBe(true);
    expect(isValidPassword('abcdef', 'simple')).toBe(false);
    expect(isValidPassword('Abcdef1', 'simple')).toBe(true);
    expect(isValidPassword('Abcdef1', 'strong')).toBe(false);
    expect(isValidPassword('Abcdef12', 'strong')).toBe(true);
  });
});

table(
  'phone (11 digits starting with 1)',
  (v) => PHONE.test(v),
  ['13800138000', '19912345678', '10000000000'],
  ['23800138000', '1380013800', '138001380000', '1380013800a', '+8613800138000', ' 13800138000'],
);

table(
  'username (letters, digits, - and _)',
  (v) => USERNAME.test(v),
  ['student01', 'Teacher-1', 'a_b', 'X'],
  ['', 'with space', 'dot.name', '张三', 'a@b', 'semi;colon'],
);

table(
  'email (standard, lowercase, no Chinese)',
  (v) => EMAIL.test(v),
  ['a@b.co', 'first.last+tag@school.edu.cn', 'x_y-z@sub.domain.org'],
  ['A@b.co', 'a@B.CO', '张三@example.com', 'a@例子.com', 'plain', 'a@b', 'a b@c.com', '@b.co', 'a@.co'],
);

table(
  'customer code (6–20 letters or digits)',
  (v) => CUSTOMER_CODE.test(v),
  ['demo2026', 'other2026', 'ABCDEF', 'a'.repeat(20)],
  ['demo1', 'a'.repeat(21), 'demo-2026', 'demo 2026', '演示学校代码'],
);

table(
  'batch registration username (3–30 letters and digits)',
  (v) => BATCH_USERNAME.test(v),
  ['abc', 'Student2026', 'a'.repeat(30)],
  ['ab', 'a'.repeat(31), 'stu_01', 'stu-01'],
);

table(
  'batch registration password (letters and digits combined, 8–20)',
  (v) => BATCH_PASSWORD.test(v),
  ['abcd1234', 'A1b2C3d4', 'abcdefg1'],
  ['abcdefgh', '12345678', 'abc123', 'abcd123!', 'abcd 1234'],
);

table(
  'version segment input (0–99, no leading zero)',
  (v) => VERSION_SEGMENT_INPUT.test(v),
  ['0', '1', '9', '10', '99'],
  ['00', '01', '100', '-1', '1.5', '', 'a'],
);

table(
  'course code (6 unambiguous letters or digits)',
  (v) => COURSE_CODE.test(v),
  ['AB23CD', '234567', 'XYZWVU'],
  ['AB23C', 'AB23CDE', 'ab23cd', 'AB0CDE', 'ABOCDE', 'AB1CDE', 'ABICDE', 'ABLCDE'],
);

table(
  'contact field (a phone of 11 digits, or an email of at most 50 characters in any case)',
  isContact,
  ['13800138000', 'a@b.co', 'abc@x.cn', 'abcde@xy.com', 'Ada.Lovelace@School.EDU.cn', `${'a'.repeat(43)}@x.test`],
  ['1380013800', '138001380001', '', 'a@b', `${'a'.repeat(44)}@x.test`, '张三@example.com', 'a b@c.com'],
);

describe('normalizeContact', () => {
  it('lower-cases an email and keeps a phone, without surrounding spaces', () => {
    expect(normalizeContact(' Ada@School.CN ')).toBe('ada@school.cn');
    expect(normalizeContact('13800138000 ')).toBe('13800138000');
  });
});

describe('the rule of each password form', () => {
  it('asks the strong rule of administrators for their own passwords, the simple one of everyone else', () => {
    for (const role of [
      ROLES.super,
      ROLES.customerAdmin,
      ROLES.subCustomerAdmin,
      ROLES.schoolAdmin,
      ROLES.organizeAdmin,
    ])
      expect(ownPasswordRule([ROLES.teacher, role])).toBe('strong');
    expect(ownPasswordRule([ROLES.teacher])).toBe('simple');
    expect(ownPasswordRule([ROLES.student])).toBe('simple');
    expect(ownPasswordRule([])).toBe('simple');
  });

  it('takes any visible ASCII password an administrator sets, without spaces or other characters', () => {
    expect(isValidPassword('123456', ADMIN_SET_PASSWORD_RULE)).toBe(true);
    expect(isValidPassword('Start 2026', ADMIN_SET_PASSWORD_RULE)).toBe(false);
    expect(isValidPassword('密码密码密码', ADMIN_SET_PASSWORD_RULE)).toBe(false);
  });
});

table(
  'rename (at most 30, no special characters)',
  isSafeName,
  ['notes.md', 'data_2026', '我的项目', 'My project v2', 'a'.repeat(30)],
  ['', '   ', 'a'.repeat(31), 'a/b', 'x*y', 'what?', '..', 'semi;colon', 'tab\tname'],
);

describe('image types', () => {
  it('accepts jpg, png, gif, jpeg and the bmp variant instead of gif', () => {
    expect(IMAGE_TYPES.every((t) => hasExtension(`x.${t}`, IMAGE_TYPES))).toBe(true);
    expect(hasExtension('photo.JPG', IMAGE_TYPES)).toBe(true);
    expect(hasExtension('anim.gif', IMAGE_TYPES_BMP)).toBe(false);
    expect(hasExtension('scan.bmp', IMAGE_TYPES_BMP)).toBe(true);
    expect(hasExtension('scan.bmp', IMAGE_TYPES)).toBe(false);
    expect(hasExtension('png', IMAGE_TYPES)).toBe(false);
    expect(hasExtension('evil.png.exe', IMAGE_TYPES)).toBe(false);
  });
});

describe('limits of sections 5 and 9', () => {
  it('holds the numbers of the specification', () => {
    expect(LIMITS).toMatchObject({
      contact: 11,
      email: 50,
      customerCode: 20,
      loginPassword: 20,
      nickname: 10,
      realName: 20,
      schoolName: 20,
      notes: 50,
      remark: 100,
      courseTitle: 100,
      rename: 30,
      description: 300,
      tags: 10,
      sectionsPerCourse: 100,
      tasksPerSection: 10,
      resourcesPerSection: 10,
      homeProjectTypes: 6,
      annotationCategories: 50,
      datasetName: 100,
      datasetDescription: 1000,
      courseCode: 6,
      sliderMax: 281,
    });
    expect(LIMITS.coverBytes).toBe(2 * 1024 * 1024);
    expect(LIMITS.bannerBytes).toBe(3 * 1024 * 1024);
    expect(LIMITS.avatarBytes).toBe(5 * 1024 * 1024);
    expect(LIMITS.resourceBytes).toBe(2 * 1024 * 1024 * 1024);
    expect(LIMITS.projectUploadBytes).toBe(100 * 1024 * 1024);
  });
});

table(
  'stored link (http or https to a host)',
  isHttpUrl,
  ['https://school.test', 'http://edu.test/a?b=1#c', 'HTTPS://Upper.Test/Path', 'https://学校.test/'],
  [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '//school.test/path',
    '/relative',
    'https://',
    'school.test',
    '',
  ],
);
