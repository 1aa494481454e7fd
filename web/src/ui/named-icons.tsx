import { CloseCircleFilled, EllipsisOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, type PaginationProps } from 'antd';
import type { SearchProps } from 'antd/es/input';
import { cloneElement, isValidElement, useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * An icon that is the whole content of a control the component library renders (a clear button, a tabs' "more"
 * button), with its name as hidden text: the library gives those buttons no name of their own, and a screen
 * reader, axe and HTML_CodeSniffer all read the text.
 */
export function NamedIcon({ icon, name }: { icon: ReactNode; name: string }) {
  return (
    <>
      <span aria-hidden="true">{icon}</span>
      <span className="visually-hidden">{name}</span>
    </>
  );
}

/** `allowClear` for inputs: their clear button is named "Clear" in the user's language. */
export function useClearable() {
  const { t } = useTranslation('common');
  return { clearIcon: <NamedIcon icon={<CloseCircleFilled />} name={t('controls.clear')} /> };
}

/** `more` for tabs: the button that lists the tabs that do not fit is named "More tabs". */
export function useTabsMore() {
  const { t } = useTranslation('common');
  return { icon: <NamedIcon icon={<EllipsisOutlined />} name={t('controls.moreTabs')} /> };
}

/**
 * The library's search box with both of its buttons named: the search button ("Search", which the library
 * renders as a bare icon) and, with `allowClear`, the clear button.
 */
export function SearchInput({ allowClear, ...props }: SearchProps) {
  const { t } = useTranslation('common');
  const clearable = useClearable();
  return (
    <Input.Search
      {...props}
      allowClear={allowClear ? clearable : false}
      enterButton={<Button icon={<SearchOutlined />} aria-label={t('controls.search')} />}
    />
  );
}

/**
 * `itemRender` for paginations: the library's previous and next page buttons hold only an arrow icon (named "left"
 * and "right" at best); they are named "Previous page" and "Next page" in the user's language.
 */
export function usePageButtons(): NonNullable<PaginationProps['itemRender']> {
  const { t } = useTranslation('common');
  return useCallback(
    (_page, type, element) =>
      (type === 'prev' || type === 'next') && isValidElement<{ 'aria-label'?: string }>(element)
        ? cloneElement(element, { 'aria-label': t(type === 'prev' ? 'controls.previousPage' : 'controls.nextPage') })
        : element,
    [t],
  );
}
