import { API, type TAppItem } from '@aiedu/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../app/api';
import { useLanguage } from '../../app/i18n';
import { useSessionRoles } from '../../app/session';
import { usableProducts, type UsableProduct } from './product-access';

export type ChooserProduct = UsableProduct & Pick<TAppItem, 'name' | 'description'>;

/**
 * The products the signed-in user may use, named by the server in the current language (`GET /gw/api/v1/apps`
 * lists every product): `usable` is known at once, for the skeleton; `products` once the names have arrived.
 */
export function useProducts() {
  const language = useLanguage();
  const roles = useSessionRoles();
  const usable = useMemo(() => usableProducts(roles), [roles]);
  const apps = useQuery({
    queryKey: [API.apps, language],
    // The page says itself what went wrong, and what to do.
    queryFn: () => api.get<TAppItem[]>(API.apps, { quiet: true }),
    // The old names stay while the new language's arrive, so the cards do not turn back into skeletons.
    placeholderData: keepPreviousData,
  });
  const products = useMemo(
    () =>
      apps.data?.flatMap(({ id, name, description }): ChooserProduct[] => {
        const product = usable.find((p) => p.id === id);
        return product ? [{ ...product, name, description }] : [];
      }),
    [apps.data, usable],
  );
  return {
    usable,
    products,
    isError: apps.isError,
    retrying: apps.isFetching,
    retry: () => void apps.refetch(),
  };
}
