import type { Language } from '@aiedu/contracts';

type Scene = 'REGISTER' | 'RESET_PWD' | 'LOGIN' | 'BIND';

const SUBJECT: Record<Language, string> = {
  en: 'Your verification code',
  zh_CHS: '您的验证码',
  zh_CHT: '您的驗證碼',
  ja: '認証コード',
};

const PURPOSE: Record<Language, Record<Scene, string>> = {
  en: {
    REGISTER: 'to sign up',
    RESET_PWD: 'to reset your password',
    LOGIN: 'to sign in',
    BIND: 'to link this contact',
  },
  zh_CHS: { REGISTER: '用于注册', RESET_PWD: '用于重置密码', LOGIN: '用于登录', BIND: '用于绑定' },
  zh_CHT: { REGISTER: '用於註冊', RESET_PWD: '用於重設密碼', LOGIN: '用於登入', BIND: '用於綁定' },
  ja: { REGISTER: '新規登録用', RESET_PWD: 'パスワード再設定用', LOGIN: 'ログイン用', BIND: '連絡先の登録用' },
};

const BODY: Record<Language, (code: string, purpose: string) => string> = {
  en: (code, purpose) => `Your verification code ${purpose} is ${code}. It is valid for 10 minutes. Never share it.`,
  zh_CHS: (code, purpose) => `您的验证码是 ${code}（${purpose}），10 分钟内有效，请勿泄露。`,
  zh_CHT: (code, purpose) => `您的驗證碼是 ${code}（${purpose}），10 分鐘內有效，請勿洩露。`,
  ja: (code, purpose) => `認証コード（${purpose}）は ${code} です。10 分間有効です。他人に教えないでください。`,
};

export function codeMessage(language: Language, scene: Scene, code: string) {
  return { subject: SUBJECT[language], body: BODY[language](code, PURPOSE[language][scene]) };
}
