import type { AttemptCheckResult, StoredQuestion } from '../../platform/db/schema/index.js';

export interface Answer {
  questionId: string;
  choices?: number[] | undefined;
  text?: string | undefined;
}

/**
 * Credit of one choice question, 0–1. Single choice: all or nothing. Multiple choice: nothing when any wrong
 * option is chosen; otherwise the share of the right options that were chosen (2 of 3 right → 2/3).
 */
export function choiceCredit(question: StoredQuestion, choices: readonly number[] | undefined): number {
  const right = new Set(question.answer ?? []);
  const chosen = new Set(choices ?? []);
  if (chosen.size === 0 || right.size === 0) return 0;
  for (const choice of chosen) if (!right.has(choice)) return 0;
  if (question.type === 'single') return chosen.size === 1 ? 1 : 0;
  return chosen.size / right.size;
}

export interface Grade {
  credits: Record<string, number>;
  /** 0–100 when every question is graded automatically; null while a teacher still has to grade. */
  score: number | null;
  status: 'graded' | 'pending';
  /** What the automatic checks of the experiments scored, on average (null: no check took part). */
  autoScore: number | null;
}

/**
 * Grades the choice questions on submit, and the experiments an automatic check scored (their credit is the
 * latest finished check's score). Short answers, experiments without a check and experiments whose check has
 * not run wait for the teacher.
 */
export function gradeAttempt(
  questions: readonly StoredQuestion[],
  answers: readonly Answer[],
  checks: Readonly<Record<string, AttemptCheckResult>> = {},
): Grade {
  const credits: Record<string, number> = {};
  const checkScores: number[] = [];
  let manual = false;
  for (const question of questions) {
    const checked = question.type === 'experiment' && question.check ? checks[question.id] : undefined;
    if (question.type === 'single' || question.type === 'multiple') {
      const answer = answers.find((a) => a.questionId === question.id);
      credits[question.id] = choiceCredit(question, answer?.choices);
    } else if (checked) {
      credits[question.id] = checked.score / 100;
      checkScores.push(checked.score);
    } else {
      manual = true;
    }
  }
  const autoScore =
    checkScores.length === 0 ? null : Math.round(checkScores.reduce((a, b) => a + b, 0) / checkScores.length);
  if (manual) return { credits, score: null, status: 'pending', autoScore };
  const total = Object.values(credits).reduce((sum, c) => sum + c, 0);
  const score = questions.length === 0 ? 0 : Math.round((100 * total) / questions.length);
  return { credits, score, status: 'graded', autoScore };
}
