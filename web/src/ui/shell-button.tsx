import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';
import './shell-button.css';

/**
 * Buttons of the app shell and the pages a visitor lands on (header, home, status pages). Their code loads before,
 * and on those pages without, the component library, so they are native elements drawn by our own CSS to look like
 * ui/button's primary, secondary and icon buttons.
 */
type Kind = 'primary' | 'secondary';
type Size = 'large' | 'middle';

function classes(kind: Kind | 'icon', size: Size, className?: string): string {
  return ['shell-button', `shell-button--${kind}`, `shell-button--${size}`, className].filter(Boolean).join(' ');
}

type NativeProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'>;

export type ShellButtonProps =
  | (NativeProps & { kind?: Kind; size?: Size })
  | (NativeProps & { kind: 'icon'; size?: Size; icon: ReactNode; 'aria-label': string });

export function ShellButton(props: ShellButtonProps) {
  if (props.kind === 'icon') {
    const { kind, size = 'middle', icon, className, ...rest } = props;
    return (
      <button {...rest} type="button" title={rest['aria-label']} className={classes(kind, size, className)}>
        {icon}
      </button>
    );
  }
  const { kind = 'secondary', size = 'middle', className, ...rest } = props;
  return <button {...rest} type="button" className={classes(kind, size, className)} />;
}

/** A link inside the app that looks like a button: a real `<a href>` (new tab, copy link). */
export function ShellLinkButton({
  to,
  kind = 'secondary',
  size = 'middle',
  children,
}: {
  to: string;
  kind?: Kind;
  size?: Size;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={classes(kind, size)}>
      {children}
    </Link>
  );
}
