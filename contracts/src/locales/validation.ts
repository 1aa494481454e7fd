import type { Language } from '../languages.js';

/**
 * The schemas' own validation messages (those not made by zod itself) in every language, keyed by the English text
 * the schema carries. zod's own messages are localised by its locales; these are the rest.
 */
export const VALIDATION_MESSAGES: Record<Exclude<Language, 'en'>, Record<string, string>> = {
  zh_CHS: {
    'the end is before the start': '结束日期早于开始日期',
    '6–20 letters or digits': '6–20 位字母或数字',
    'no duplicates': '不能重复',
    'nothing to change': '没有要修改的内容',
    'Only http and https links are allowed': '只允许 http 和 https 链接',
    'at most 30 letters, digits, spaces, "-", "_" or "."': '最多 30 个字母、数字、空格、"-"、"_" 或 "."',
    'a package name, optionally ==version': '包名，可附 ==版本',
    'six digits': '6 位数字',
    'an 18-character resident identity number': '18 位居民身份证号码',
    'Text may not contain NUL or an unpaired surrogate': '文本不能包含 NUL 或不成对的代理字符',
  },
  zh_CHT: {
    'the end is before the start': '結束日期早於開始日期',
    '6–20 letters or digits': '6–20 位字母或數字',
    'no duplicates': '不能重複',
    'nothing to change': '沒有要修改的內容',
    'Only http and https links are allowed': '只允許 http 和 https 連結',
    'at most 30 letters, digits, spaces, "-", "_" or "."': '最多 30 個字母、數字、空格、"-"、"_" 或 "."',
    'a package name, optionally ==version': '套件名稱，可附 ==版本',
    'six digits': '6 位數字',
    'an 18-character resident identity number': '18 位居民身分證號碼',
    'Text may not contain NUL or an unpaired surrogate': '文字不能包含 NUL 或不成對的代理字元',
  },
  ja: {
    'the end is before the start': '終了日が開始日より前です',
    '6–20 letters or digits': '英字または数字 6～20 文字',
    'no duplicates': '重複はできません',
    'nothing to change': '変更する内容がありません',
    'Only http and https links are allowed': 'http と https のリンクのみ使用できます',
    'at most 30 letters, digits, spaces, "-", "_" or "."': '英字、数字、空白、「-」「_」「.」で 30 文字以内',
    'a package name, optionally ==version': 'パッケージ名（==バージョンを付けられます）',
    'six digits': '6 桁の数字',
    'an 18-character resident identity number': '18 桁の居民身分証番号',
    'Text may not contain NUL or an unpaired surrogate': 'テキストに NUL や対になっていないサロゲートは使えません',
  },
};
