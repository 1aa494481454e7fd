import { Skeleton } from 'antd';
import { useParams } from 'react-router';
import { ScheduleMissing } from '../schedule/schedule-detail-page';
import { useClassroom } from './classroom-api';
import { LearnView } from './learn-view';
import { TeachView } from './teach-view';
import './classroom.css';

/** A schedule's live classroom: the teach view for its teachers, the learn view for its students. */
export function ClassroomPage() {
  const { scheduleId = '' } = useParams();
  const classroom = useClassroom(scheduleId);
  if (classroom.isPending) {
    return (
      <div className="page">
        <Skeleton active title={false} paragraph={{ rows: 10 }} />
      </div>
    );
  }
  if (classroom.isError || !classroom.data) return <ScheduleMissing />;
  const View = classroom.data.role === 'teacher' ? TeachView : LearnView;
  return <View key={scheduleId} classroom={classroom.data} />;
}
