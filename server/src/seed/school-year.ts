/** The school year a date falls in: it starts on 1 September (the year 2026–27 is 2026). */
export function schoolYearOf(date: Date): number {
  return date.getMonth() >= 8 ? date.getFullYear() : date.getFullYear() - 1;
}

/** The year a class now in `grade` started grade 1. */
export function startYearForGrade(grade: number, today: Date): number {
  return schoolYearOf(today) - (grade - 1);
}
