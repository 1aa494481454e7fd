import { DeclarationPage } from './declaration-page';
import { EventDetailPage } from './event-detail-page';
import { EventFormPage } from './event-form-page';
import { EventsPage } from './events-page';
import { JudgingPage } from './judging-page';
import { MyContestsPage } from './my-contests-page';
import { MyWorksPage } from './my-works-page';
import { QualificationPage } from './qualification-page';
import { ReviewsPage } from './reviews-page';

/**
 * The event screens: the list, an event's detail (with its results and ladder), the organisers' form, my contests,
 * the registration and declaration form, the qualification audit, a team's works, review management and judging.
 */
export const EVENT_PAGES = {
  EventsPage,
  EventDetailPage,
  EventFormPage,
  MyContestsPage,
  DeclarationPage,
  QualificationPage,
  MyWorksPage,
  ReviewsPage,
  JudgingPage,
};
