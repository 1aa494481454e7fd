import { ROLES } from '@aiedu/contracts';
import { describe, expect, it } from 'vitest';
import { SCREENS, type Screen } from '../../app/routes';
import { PRODUCT_CHOOSER_PATH, signInLanding, usableProducts } from './product-access';

const { student, teacher, schoolAdmin, organizeAdmin, customerAdmin, super: superAdmin } = ROLES;

/** The route table with the open platform's key management built. */
const withOpenKeys: Screen[] = SCREENS.map((screen) =>
  screen.id === 'openKeys' ? { ...screen, page: async () => () => null } : screen,
);

describe('usable products', () => {
  it('knows the chooser by the address the route table gives it', () => {
    expect(SCREENS.find((screen) => screen.id === 'productChooser')?.path).toBe(PRODUCT_CHOOSER_PATH);
  });

  it('gives learners learning only, on its home', () => {
    for (const role of [student, teacher])
      expect(usableProducts([role])).toEqual([{ id: 'pjedu', landing: '/pjedu/home' }]);
    // Signed in without a role (a personal account): learning still.
    expect(usableProducts([]).map((p) => p.id)).toEqual(['pjedu']);
  });

  it('adds administration for the roles its menu shows screens to, landing on their first entry', () => {
    expect(usableProducts([schoolAdmin])).toEqual([
      { id: 'pjedu', landing: '/pjedu/home' },
      { id: 'admin', landing: '/admin/periods' },
    ]);
    expect(usableProducts([organizeAdmin]).map((p) => p.id)).toEqual(['pjedu', 'admin']);
    expect(usableProducts([customerAdmin]).find((p) => p.id === 'admin')?.landing).toBe('/admin/sub-customers');
    expect(usableProducts([superAdmin]).find((p) => p.id === 'admin')?.landing).toBe('/super/customers');
  });

  it('offers the open platform only once one of its screens is built', () => {
    expect(usableProducts([schoolAdmin]).map((p) => p.id)).not.toContain('open');
    expect(usableProducts([student], withOpenKeys)).toEqual([
      { id: 'pjedu', landing: '/pjedu/home' },
      { id: 'open', landing: '/open/keys' },
    ]);
  });
});

describe('sign-in landing', () => {
  const session = { roles: [schoolAdmin], isUserSelect: false, product: null };

  it('sends a user of several products who has not chosen to the chooser', () => {
    expect(signInLanding(session)).toBe(PRODUCT_CHOOSER_PATH);
    // A choice not confirmed by the session flag does not count.
    expect(signInLanding({ ...session, product: 'admin' })).toBe(PRODUCT_CHOOSER_PATH);
  });

  it('sends a user who chose to the chosen product while they may still use it', () => {
    expect(signInLanding({ ...session, isUserSelect: true, product: 'admin' })).toBe('/admin/periods');
    expect(signInLanding({ ...session, isUserSelect: true, product: 'pjedu' })).toBe('/pjedu/home');
    // Chosen while it was built or while the role allowed it: the chooser again, or the one product left.
    expect(signInLanding({ ...session, isUserSelect: true, product: 'open' })).toBe(PRODUCT_CHOOSER_PATH);
    expect(signInLanding({ roles: [student], isUserSelect: true, product: 'admin' })).toBe('/pjedu/home');
  });

  it('sends a user of one product straight to it', () => {
    expect(signInLanding({ roles: [student], isUserSelect: false, product: null })).toBe('/pjedu/home');
  });
});
