import type { Language } from '@aiedu/contracts';

export const IMPORT_REASONS = [
  'missingColumns',
  'badUsername',
  'duplicateInFile',
  'usernameTaken',
  'badName',
  'unknownClass',
  'badPassword',
  'badPhone',
  'badRemark',
  'quotaExceeded',
  'badCustomerCode',
  'customerCodeTaken',
  'unknownCustomer',
  'badStages',
  'badNotes',
] as const;
export type ImportReason = (typeof IMPORT_REASONS)[number];

const TEXT: Record<Language, Record<ImportReason, string>> = {
  en: {
    missingColumns: 'The header row must have the template’s columns',
    badUsername: 'Username must be 3–30 letters, digits, - or _',
    duplicateInFile: 'This username appears more than once in the file',
    usernameTaken: 'This username is already registered',
    badName: 'Name is required (at most 20 characters)',
    unknownClass: 'No current class with this name in the school',
    badPassword: 'Password must be 6–20 letters, digits or symbols, without spaces',
    badPhone: 'Phone must be 11 digits starting with 1',
    badRemark: 'Remark is at most 100 characters',
    quotaExceeded: 'The institution’s quota would be exceeded',
    badCustomerCode: 'Customer code must be 6–20 letters or digits',
    customerCodeTaken: 'This customer code is already in use',
    unknownCustomer: 'No customer has this code',
    badStages: 'Education stages must be one or more of the stages, separated by commas',
    badNotes: 'Notes are at most 50 characters',
  },
  zh_CHS: {
    missingColumns: '表头必须包含模板中的列',
    badUsername: '用户名须为 3–30 位字母、数字、- 或 _',
    duplicateInFile: '该用户名在文件中重复出现',
    usernameTaken: '该用户名已被注册',
    badName: '姓名必填（最多 20 个字符）',
    unknownClass: '学校中没有该名称的在读班级',
    badPassword: '密码须为 6–20 个字母、数字或符号，不含空格',
    badPhone: '手机号须为以 1 开头的 11 位数字',
    badRemark: '备注最多 100 个字符',
    quotaExceeded: '将超出机构配额',
    badCustomerCode: '客户编码须为 6–20 位字母或数字',
    customerCodeTaken: '该客户编码已被使用',
    unknownCustomer: '没有该编码的客户',
    badStages: '学段须为一个或多个学段，用逗号分隔',
    badNotes: '备注最多 50 个字符',
  },
  zh_CHT: {
    missingColumns: '表頭必須包含範本中的欄位',
    badUsername: '使用者名稱須為 3–30 位字母、數字、- 或 _',
    duplicateInFile: '該使用者名稱在檔案中重複出現',
    usernameTaken: '該使用者名稱已被註冊',
    badName: '姓名必填（最多 20 個字元）',
    unknownClass: '學校中沒有該名稱的在讀班級',
    badPassword: '密碼須為 6–20 個字母、數字或符號，不含空格',
    badPhone: '手機號碼須為以 1 開頭的 11 位數字',
    badRemark: '備註最多 100 個字元',
    quotaExceeded: '將超出機構配額',
    badCustomerCode: '客戶編碼須為 6–20 位字母或數字',
    customerCodeTaken: '該客戶編碼已被使用',
    unknownCustomer: '沒有該編碼的客戶',
    badStages: '學段須為一個或多個學段，以逗號分隔',
    badNotes: '備註最多 50 個字元',
  },
  ja: {
    missingColumns: 'ヘッダー行にはテンプレートの列が必要です',
    badUsername: 'ユーザー名は 3～30 文字の英数字、- または _ です',
    duplicateInFile: 'このユーザー名はファイル内で重複しています',
    usernameTaken: 'このユーザー名は既に登録されています',
    badName: '氏名は必須です（20 文字以内）',
    unknownClass: '学校にこの名前の在籍クラスがありません',
    badPassword: 'パスワードは空白を含まない 6～20 文字の英数字・記号です',
    badPhone: '電話番号は 1 で始まる 11 桁の数字です',
    badRemark: '備考は 100 文字以内です',
    quotaExceeded: '機関の上限を超えます',
    badCustomerCode: '顧客コードは英字または数字 6～20 文字です',
    customerCodeTaken: 'この顧客コードは既に使われています',
    unknownCustomer: 'このコードの顧客はありません',
    badStages: '学段は 1 つ以上の学段をカンマで区切って入力します',
    badNotes: 'メモは 50 文字以内です',
  },
};

export const HEADERS: Record<
  Language,
  {
    username: string;
    realName: string;
    className: string;
    schoolNumber: string;
    password: string;
    phone: string;
    remark: string;
    /** Columns of the exports only: an account's state and creation, and the operation logs'. */
    status: string;
    on: string;
    off: string;
    createdAt: string;
    time: string;
    operator: string;
    module: string;
    operation: string;
    ip: string;
    params: string;
    /** Columns of the super administrators' import of customers and schools. */
    customerCode: string;
    customerName: string;
    adminUsername: string;
    adminName: string;
    schoolName: string;
    eduStages: string;
    notes: string;
  }
> = {
  en: {
    username: 'Username',
    realName: 'Name',
    className: 'Class',
    schoolNumber: 'School number',
    password: 'Initial password',
    phone: 'Phone',
    remark: 'Remark',
    status: 'Status',
    on: 'On',
    off: 'Off',
    createdAt: 'Created',
    time: 'Time',
    operator: 'Operator',
    module: 'Module',
    operation: 'Operation',
    ip: 'IP',
    params: 'Parameters',
    customerCode: 'Customer code',
    customerName: 'Customer name',
    adminUsername: 'Administrator username',
    adminName: 'Administrator name',
    schoolName: 'School name',
    eduStages: 'Education stages',
    notes: 'Notes',
  },
  zh_CHS: {
    username: '用户名',
    realName: '姓名',
    className: '班级',
    schoolNumber: '学号',
    password: '初始密码',
    phone: '手机号',
    remark: '备注',
    status: '状态',
    on: '启用',
    off: '停用',
    createdAt: '创建时间',
    time: '时间',
    operator: '操作人',
    module: '模块',
    operation: '操作类型',
    ip: 'IP',
    params: '参数',
    customerCode: '客户编码',
    customerName: '客户名称',
    adminUsername: '管理员用户名',
    adminName: '管理员姓名',
    schoolName: '学校名称',
    eduStages: '学段',
    notes: '备注信息',
  },
  zh_CHT: {
    username: '使用者名稱',
    realName: '姓名',
    className: '班級',
    schoolNumber: '學號',
    password: '初始密碼',
    phone: '手機號碼',
    remark: '備註',
    status: '狀態',
    on: '啟用',
    off: '停用',
    createdAt: '建立時間',
    time: '時間',
    operator: '操作人',
    module: '模組',
    operation: '操作類型',
    ip: 'IP',
    params: '參數',
    customerCode: '客戶編碼',
    customerName: '客戶名稱',
    adminUsername: '管理員使用者名稱',
    adminName: '管理員姓名',
    schoolName: '學校名稱',
    eduStages: '學段',
    notes: '備註資訊',
  },
  ja: {
    username: 'ユーザー名',
    realName: '氏名',
    className: 'クラス',
    schoolNumber: '学籍番号',
    password: '初期パスワード',
    phone: '電話番号',
    remark: '備考',
    status: '状態',
    on: '有効',
    off: '無効',
    createdAt: '作成日時',
    time: '日時',
    operator: '操作者',
    module: 'モジュール',
    operation: '操作',
    ip: 'IP',
    params: 'パラメーター',
    customerCode: '顧客コード',
    customerName: '顧客名',
    adminUsername: '管理者ユーザー名',
    adminName: '管理者氏名',
    schoolName: '学校名',
    eduStages: '学段',
    notes: 'メモ',
  },
};

export function reasonText(language: Language, reason: ImportReason): string {
  return TEXT[language][reason];
}
