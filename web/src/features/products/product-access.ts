import { hasPermission } from '@aiedu/contracts';
import { ADMIN_PATHS, PATHS } from '../../app/paths';
import { SCREENS, type Screen } from '../../app/routes';
import type { Session } from '../../app/session';
import { visibleMenu } from '../admin/admin-menu';

/** The product chooser's address (route `productChooser`). */
export const PRODUCT_CHOOSER_PATH = '/pjedu/products';

/** The products of the product chooser, by the ids `GET /gw/api/v1/apps` names them with, in the chooser's order. */
export const PRODUCT_IDS = ['pjedu', 'admin', 'open'] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

export interface UsableProduct {
  id: ProductId;
  /** The first screen of the product the user may open. */
  landing: string;
}

/** Where the open platform's screens live in the route table. */
const OPEN_PLATFORM = '/open/';

/**
 * The screens a product may start on for the roles, best first: learning on its home; administration on the entries
 * of the administration menu the roles see (the menu reads the contracts' permission table); the open platform on
 * its screens.
 */
function entryPaths(id: ProductId, roles: readonly string[], screens: readonly Screen[]): string[] {
  switch (id) {
    case 'pjedu':
      return [PATHS.learnerHome];
    case 'admin':
      return visibleMenu((permission) => hasPermission(roles, permission)).flatMap((group) =>
        group.items.filter((item) => !item.fromTeaching).map((item) => ADMIN_PATHS[item.screen]),
      );
    case 'open':
      return screens.filter((screen) => screen.path.startsWith(OPEN_PLATFORM)).map((screen) => screen.path);
  }
}

/**
 * The products the roles may use, each with its landing: a product is offered only when one of its entry screens has
 * a page in the route table, so a product still being built is not offered (it would only say "coming soon").
 */
export function usableProducts(roles: readonly string[], screens: readonly Screen[] = SCREENS): UsableProduct[] {
  const built = new Set(screens.filter((screen) => screen.page).map((screen) => screen.path));
  return PRODUCT_IDS.flatMap((id) => {
    const landing = entryPaths(id, roles, screens).find((path) => built.has(path));
    return landing ? [{ id, landing }] : [];
  });
}

/**
 * Where a sign-in without a return path lands: the product the user chose before, while they may still use it;
 * otherwise the chooser when they may use more than one product, or the one product they may use.
 */
export function signInLanding(
  session: Pick<Session, 'roles' | 'isUserSelect' | 'product'>,
  screens: readonly Screen[] = SCREENS,
): string {
  const products = usableProducts(session.roles, screens);
  const chosen = session.isUserSelect ? products.find((product) => product.id === session.product) : undefined;
  if (chosen) return chosen.landing;
  if (products.length > 1) return PRODUCT_CHOOSER_PATH;
  return products[0]?.landing ?? PATHS.learnerHome;
}
