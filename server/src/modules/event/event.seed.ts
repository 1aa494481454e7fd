import type { Db } from '../../platform/db/client.js';
import { events } from '../../platform/db/schema/index.js';

const DAY = 86_400_000;

export const DEMO_EVENT_NAME = 'AI Creativity Contest 2026';

/**
 * The demo customer's contest: registration open from `today` for 30 days, then submission, review and results; a
 * judged track and an auto-scored one, organised by the customer's administrator.
 */
export async function insertDemoEvent(db: Db, customerId: string, organiserId: string, today: Date) {
  const at = (days: number) => new Date(today.getTime() + days * DAY);
  await db.insert(events).values({
    customerId,
    organiserId,
    name: DEMO_EVENT_NAME,
    description:
      '## About\n\nTeams of one to three students and a mentor build something creative with AI, or train the best iris classifier.\n\n## Tracks\n\n- **Creative AI**: judged by a panel.\n- **Iris classification**: scored automatically on a hidden answer set.',
    tracks: [
      { id: 'creative', name: 'Creative AI', kind: 'judged', dailyRuns: 5, higherIsBetter: true },
      { id: 'iris', name: 'Iris classification', kind: 'auto', dailyRuns: 5, higherIsBetter: true },
    ],
    registrationStart: at(-1 / 24),
    registrationEnd: at(30),
    submissionStart: at(30),
    submissionEnd: at(60),
    reviewStart: at(61),
    reviewEnd: at(75),
    resultsAt: at(76),
    eligibility: { customerIds: [], stages: [], grades: [] },
    teamMin: 1,
    teamMax: 3,
    mentorMin: 1,
    mentorMax: 2,
    awards: [
      { name: 'First prize', count: 1 },
      { name: 'Second prize', count: 2 },
      { name: 'Third prize', count: 3 },
    ],
  });
}
