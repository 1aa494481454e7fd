import { eventPhaseAt, eventStateAt, openAt, type EventPhase, type EventState } from '@aiedu/contracts';

/**
 * An event's state and phase by the server's clock (`ctx.now()`), never stored and never taken from the browser:
 * a deadline is the same instant for everyone, and tests move the clock instead of waiting. The rules themselves are
 * the contract's, which the screens apply to the answer's `serverTime`.
 */
export interface EventDates {
  registrationStart: Date;
  registrationEnd: Date;
  submissionStart: Date;
  submissionEnd: Date;
  reviewStart: Date;
  reviewEnd: Date;
  resultsAt: Date;
}

export const eventState = (dates: EventDates, now: Date): EventState => eventStateAt(dates, now);
export const eventPhase = (dates: EventDates, now: Date): EventPhase => eventPhaseAt(dates, now);
export const registrationOpen = (dates: EventDates, now: Date) =>
  openAt(dates.registrationStart, dates.registrationEnd, now);
export const submissionOpen = (dates: EventDates, now: Date) => openAt(dates.submissionStart, dates.submissionEnd, now);
/** Judges score between the review's start and end. */
export const reviewOpen = (dates: EventDates, now: Date) => openAt(dates.reviewStart, dates.reviewEnd, now);
export const submissionClosed = (dates: EventDates, now: Date) => now.getTime() >= dates.submissionEnd.getTime();
