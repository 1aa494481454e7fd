import type { Language } from '@aiedu/contracts';

interface ExportTexts {
  sheet: string;
  username: string;
  name: string;
  className: string;
  schoolNumber: string;
  progress: string;
  completedSections: string;
  minutes: string;
  lastActive: string;
  /** A task's cell when the student has not answered, or their answer waits for a score. */
  todo: string;
  pending: string;
}

/** The student export of a schedule in the teacher's language; each given task adds a column under its title. */
export const EXPORT_TEXTS: Record<Language, ExportTexts> = {
  en: {
    sheet: 'Students',
    username: 'Username',
    name: 'Name',
    className: 'Class',
    schoolNumber: 'School number',
    progress: 'Progress (%)',
    completedSections: 'Sections completed',
    minutes: 'Time spent (minutes)',
    lastActive: 'Last activity',
    todo: 'Not submitted',
    pending: 'Awaiting score',
  },
  zh_CHS: {
    sheet: '学生',
    username: '用户名',
    name: '姓名',
    className: '班级',
    schoolNumber: '学号',
    progress: '学习进度（%）',
    completedSections: '已完成小节',
    minutes: '学习时长（分钟）',
    lastActive: '最近学习',
    todo: '未提交',
    pending: '待评分',
  },
  zh_CHT: {
    sheet: '學生',
    username: '使用者名稱',
    name: '姓名',
    className: '班級',
    schoolNumber: '學號',
    progress: '學習進度（%）',
    completedSections: '已完成小節',
    minutes: '學習時長（分鐘）',
    lastActive: '最近學習',
    todo: '未提交',
    pending: '待評分',
  },
  ja: {
    sheet: '生徒',
    username: 'ユーザー名',
    name: '氏名',
    className: 'クラス',
    schoolNumber: '学籍番号',
    progress: '進捗（%）',
    completedSections: '完了した節',
    minutes: '学習時間（分）',
    lastActive: '最終学習',
    todo: '未提出',
    pending: '採点待ち',
  },
};
