import { isHttpUrl } from '@aiedu/contracts';
import type { AnchorHTMLAttributes, ReactNode } from 'react';

/**
 * A link someone stored (a banner's, a footer site, a course's AI link) is shown as a link only when it is an
 * http(s) address. The server refuses anything else now; a link stored before that (`javascript:`, `data:`) shows
 * as plain text, so it never runs.
 */
export function StoredLink({
  href,
  children,
  ...anchor
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string | null | undefined; children: ReactNode }) {
  if (href && isHttpUrl(href)) {
    return (
      <a href={href} {...anchor}>
        {children}
      </a>
    );
  }
  return (
    <span className={anchor.className} style={anchor.style}>
      {children}
    </span>
  );
}
