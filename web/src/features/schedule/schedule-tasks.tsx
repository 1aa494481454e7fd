import type { TScheduleDetail } from '@aiedu/contracts';
import { StudentTasks } from './student-tasks';
import { TeacherTasks } from './teacher-tasks';

/** A schedule's tasks: given and scored by its teachers, answered by its students. */
export function ScheduleTasks({ schedule }: { schedule: TScheduleDetail }) {
  return schedule.role === 'teacher' ? <TeacherTasks schedule={schedule} /> : <StudentTasks schedule={schedule} />;
}
