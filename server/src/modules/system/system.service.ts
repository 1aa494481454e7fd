import { LANGUAGE_NAMES, LANGUAGES, type Language, type TAppItem, type TLanguageItem } from '@aiedu/contracts';

export function listLanguages(): TLanguageItem[] {
  return LANGUAGES.map((code) => ({ code, name: LANGUAGE_NAMES[code] }));
}

type AppText = Record<Language, { name: string; description: string }>;

/** The products offered by the product chooser after sign-in. */
const APPS: { id: string; path: string; text: AppText }[] = [
  {
    id: 'pjedu',
    path: '/pjedu/home',
    text: {
      en: { name: 'AI Learning', description: 'Courses, notebook projects, datasets, groups and events' },
      zh_CHS: { name: '人工智能学习', description: '课程、笔记本项目、数据集、小组与赛事' },
      zh_CHT: { name: '人工智慧學習', description: '課程、筆記本專案、資料集、小組與賽事' },
      ja: { name: 'AI 学習', description: 'コース、ノートブックプロジェクト、データセット、グループ、イベント' },
    },
  },
  {
    id: 'admin',
    path: '/admin',
    text: {
      en: { name: 'Institution Administration', description: 'Schools, classes, teachers, students and statistics' },
      zh_CHS: { name: '机构管理', description: '学校、班级、教师、学生与统计' },
      zh_CHT: { name: '機構管理', description: '學校、班級、教師、學生與統計' },
      ja: { name: '機関管理', description: '学校、クラス、教員、生徒、統計' },
    },
  },
  {
    id: 'open',
    path: '/open',
    text: {
      en: { name: 'Open Platform', description: 'API documents, access keys and tenant domains' },
      zh_CHS: { name: '开放平台', description: 'API 文档、访问密钥与租户域名' },
      zh_CHT: { name: '開放平台', description: 'API 文件、存取金鑰與租戶網域' },
      ja: { name: 'オープンプラットフォーム', description: 'API ドキュメント、アクセスキー、テナントドメイン' },
    },
  },
];

export function listApps(language: Language): TAppItem[] {
  return APPS.map(({ id, path, text }) => ({ id, path, ...text[language] }));
}
