import type { MouseEvent } from 'react';
import { useHref, useNavigate } from 'react-router';
import { Button, type ButtonProps } from './button';

export type LinkButtonProps = Omit<ButtonProps, 'href' | 'kind'> & {
  to: string;
  kind?: 'primary' | 'secondary' | 'ghost';
};

/** A link that looks like a button: a real `<a href>` (new tab, copy link) that navigates inside the app. */
export function LinkButton({ to, onClick, ...rest }: LinkButtonProps) {
  const href = useHref(to);
  const navigate = useNavigate();
  const follow = (event: MouseEvent<HTMLElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void navigate(to);
  };
  return <Button {...rest} href={href} onClick={follow} />;
}
