import { AimOutlined, PlayCircleOutlined, PoweroffOutlined, UnlockOutlined } from '@ant-design/icons';
import type { TClassroomSession } from '@aiedu/contracts';
import { Button, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDanger } from '../admin/confirm';
import { lessonCalls } from './classroom-api';
import type { LiveClassroom } from './use-live-classroom';

/** Solid tag colours dark enough for white text (at least 4.5:1). */
const STATE_COLORS = { none: '#595959', notStarted: '#1f5fcc', teaching: '#237804', finished: '#595959' } as const;

export function LessonStateTag({ session }: { session: TClassroomSession | null }) {
  const { t } = useTranslation('classroom');
  const state = session?.status ?? 'none';
  return <Tag color={STATE_COLORS[state]}>{t(`lesson.state.${state}`)}</Tag>;
}

/**
 * The teacher's moves of the lesson: open one, start it, finish it (after a confirmation), and release the class
 * to work alone or call it back. A refusal (another teacher moved first: 4301) shows its catalogue message, and
 * the lesson as it is arrives on the socket.
 */
export function LessonBar({ scheduleId, live }: { scheduleId: string; live: LiveClassroom }) {
  const { t } = useTranslation('classroom');
  const [modal, modalHost] = Modal.useModal();
  const [busy, setBusy] = useState<string | null>(null);
  const { session } = live;
  const run = (name: string, call: () => Promise<TClassroomSession>) => async () => {
    setBusy(name);
    try {
      live.accept(await call());
    } catch {
      // The API client showed the refusal.
    } finally {
      setBusy(null);
    }
  };
  const finish = () =>
    confirmDanger(modal, {
      title: t('lesson.finishTitle'),
      content: t('lesson.finishBody'),
      okText: t('lesson.finish'),
      cancelText: t('lesson.cancel'),
      onOk: run('finish', () => lessonCalls.finish(session!.id)),
    });
  const open = !session || session.status === 'finished';
  const released = session?.mode === 'free';
  return (
    <Space wrap className="classroom-lesson-bar">
      {modalHost}
      {open && (
        <Button
          type="primary"
          size="large"
          icon={<PlayCircleOutlined aria-hidden="true" />}
          loading={busy === 'open'}
          onClick={run('open', () => lessonCalls.open(scheduleId))}
        >
          {t('lesson.open')}
        </Button>
      )}
      {session?.status === 'notStarted' && (
        <Button
          type="primary"
          size="large"
          icon={<PlayCircleOutlined aria-hidden="true" />}
          loading={busy === 'start'}
          onClick={run('start', () => lessonCalls.start(session.id))}
        >
          {t('lesson.start')}
        </Button>
      )}
      {session && !open && (
        <Button
          size="large"
          icon={released ? <AimOutlined aria-hidden="true" /> : <UnlockOutlined aria-hidden="true" />}
          loading={busy === 'mode'}
          onClick={run('mode', () => lessonCalls.mode(session.id, released ? 'follow' : 'free'))}
        >
          {released ? t('lesson.callBack') : t('lesson.release')}
        </Button>
      )}
      {session?.status === 'teaching' && (
        <Button
          size="large"
          danger
          icon={<PoweroffOutlined aria-hidden="true" />}
          loading={busy === 'finish'}
          onClick={finish}
        >
          {t('lesson.finish')}
        </Button>
      )}
    </Space>
  );
}
