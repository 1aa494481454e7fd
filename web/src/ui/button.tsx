import { Button as AntButton, type ButtonProps as AntButtonProps } from 'antd';
import type { ReactNode } from 'react';
import './button.css';

export type ButtonKind = 'primary' | 'secondary' | 'ghost' | 'icon';
export type ButtonSize = 'large' | 'middle' | 'small' | 'mini';

type BaseProps = Omit<AntButtonProps, 'type' | 'size' | 'ghost' | 'shape'> & { size?: ButtonSize };

/** An icon button has no visible text, so it must say what it does. */
export type ButtonProps =
  | (BaseProps & { kind?: Exclude<ButtonKind, 'icon'> })
  | (BaseProps & { kind: 'icon'; icon: ReactNode; 'aria-label': string });

const TYPES: Record<ButtonKind, AntButtonProps['type']> = {
  primary: 'primary',
  secondary: 'default',
  ghost: 'primary',
  icon: 'text',
};

/** The product's buttons (spec section 9): primary, secondary, ghost and icon in four sizes. */
export function Button({ kind = 'secondary', size = 'middle', className, ...rest }: ButtonProps) {
  const mini = size === 'mini';
  return (
    <AntButton
      {...rest}
      type={TYPES[kind]}
      ghost={kind === 'ghost'}
      shape={kind === 'icon' ? 'circle' : undefined}
      title={kind === 'icon' ? rest['aria-label'] : rest.title}
      size={mini ? 'small' : size}
      className={[mini ? 'ui-button-mini' : '', className ?? ''].join(' ').trim() || undefined}
    />
  );
}
