import { useId, type ReactNode } from 'react';
import './status-card.css';

export interface StatusCardProps {
  icon: ReactNode;
  title: string;
  lead?: string;
  body?: string;
  action?: ReactNode;
}

/** The page-sized message used by "coming soon", "not found", "something went wrong" and sign-in placeholders. */
export function StatusCard({ icon, title, lead, body, action }: StatusCardProps) {
  const titleId = useId();
  return (
    <section className="status-card" aria-labelledby={titleId}>
      <span className="status-card__icon" aria-hidden="true">
        {icon}
      </span>
      <h1 id={titleId} className="status-card__title">
        {title}
      </h1>
      {lead && <p className="status-card__lead">{lead}</p>}
      {body && <p className="status-card__body">{body}</p>}
      {action && <div className="status-card__action">{action}</div>}
    </section>
  );
}
