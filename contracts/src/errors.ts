/**
 * The error catalogue: every code the API answers with, its HTTP status and the key of its message.
 * Messages live in `locales/<language>.ts` under `errors.<key>`; the server localises `errorMsg` from
 * them and the web client shows the same text. Codes are stable: never reuse or renumber one.
 */
export const ERRORS = {
  // General
  SUCCESS: { code: '1000', status: 200, key: 'success' },
  BAD_REQUEST: { code: '1001', status: 400, key: 'badRequest' },
  UNKNOWN: { code: '1002', status: 500, key: 'unknown' },
  INVALID_REQUEST: { code: '1003', status: 400, key: 'invalidRequest' },
  NOT_FOUND: { code: '1004', status: 404, key: 'notFound' },
  LINK_EXPIRED: { code: '1005', status: 410, key: 'linkExpired' },
  NO_PERMISSION_PAGE: { code: '1006', status: 403, key: 'noPermissionPage' },
  NO_EDIT_PERMISSION: { code: '1007', status: 403, key: 'noEditPermission' },
  NO_PERMISSION_VISIT: { code: '1008', status: 403, key: 'noPermissionVisit' },
  OPERATION_FAILED: { code: '1009', status: 409, key: 'operationFailed' },
  LOADING_FAILED: { code: '1010', status: 500, key: 'loadingFailed' },
  SERVICE_UNAVAILABLE: { code: '1011', status: 503, key: 'serviceUnavailable' },
  // Sign-in and registration
  TOO_MANY_LOGIN_ATTEMPTS: { code: '1101', status: 429, key: 'tooManyLoginAttempts' },
  WRONG_CREDENTIALS: { code: '1102', status: 400, key: 'wrongCredentials' },
  USERNAME_TAKEN: { code: '1103', status: 409, key: 'usernameTaken' },
  CAPTCHA_REQUIRED: { code: '1104', status: 400, key: 'captchaRequired' },
  EMAIL_TAKEN: { code: '1105', status: 409, key: 'emailTaken' },
  CONTACT_INVALID: { code: '1106', status: 400, key: 'contactInvalid' },
  TOKEN_EXPIRED: { code: '1107', status: 401, key: 'tokenExpired' },
  EMAIL_SEND_FAILED: { code: '1108', status: 502, key: 'emailSendFailed' },
  TOO_FREQUENT: { code: '1109', status: 429, key: 'tooFrequent' },
  /**
   * Reserved: never sent. No payload carries a password's confirmation (spec 3), so the forms compare the two fields
   * themselves (spec 5's "The two passwords you typed do not match"); kept because codes are never renumbered.
   */
  PASSWORD_MISMATCH: { code: '1110', status: 400, key: 'passwordMismatch' },
  VERIFY_CODE_INVALID: { code: '1111', status: 400, key: 'verifyCodeInvalid' },
  LOGIN_FAILED: { code: '1112', status: 400, key: 'loginFailed' },
  EMAIL_NOT_REGISTERED: { code: '1113', status: 404, key: 'emailNotRegistered' },
  PHONE_TAKEN: { code: '1114', status: 409, key: 'phoneTaken' },
  RESET_PASSWORD_FAILED: { code: '1115', status: 400, key: 'resetPasswordFailed' },
  CAPTCHA_WRONG: { code: '1116', status: 400, key: 'captchaWrong' },
  PASSWORD_WEAK: { code: '1117', status: 400, key: 'passwordWeak' },
  PASSWORD_CHANGE_REQUIRED: { code: '1118', status: 403, key: 'passwordChangeRequired' },
  SESSION_REPLACED: { code: 'E002', status: 401, key: 'sessionReplaced' },
  ACCOUNT_DISABLED: { code: 'E003', status: 401, key: 'accountDisabled' },
  PROFILE_INCOMPLETE: { code: 'F107', status: 403, key: 'profileIncomplete' },
  // Files
  COPY_INTO_ITSELF: { code: '2001', status: 400, key: 'copyIntoItself' },
  FILE_EXISTS: { code: '2002', status: 409, key: 'fileExists' },
  NO_SPACE: { code: '2003', status: 507, key: 'noSpace' },
  NETWORK_ERROR: { code: '2004', status: 502, key: 'networkError' },
  UPLOAD_FAILED: { code: '2005', status: 500, key: 'uploadFailed' },
  FILE_TOO_LARGE: { code: '2006', status: 413, key: 'fileTooLarge' },
  EXPORT_FAILED: { code: '2007', status: 500, key: 'exportFailed' },
  UPLOAD_RATE_LIMITED: { code: '2008', status: 429, key: 'uploadRateLimited' },
  // Projects and datasets
  DEPENDENCY_SYNC_FAILED: { code: '3001', status: 500, key: 'dependencySyncFailed' },
  CODE_SYNC_FAILED: { code: '3002', status: 500, key: 'codeSyncFailed' },
  DATASET_SYNC_FAILED: { code: '3003', status: 500, key: 'datasetSyncFailed' },
  CONTAINER_FULL: { code: '3004', status: 409, key: 'containerFull' },
  COMPUTE_EXHAUSTED: { code: '3005', status: 409, key: 'computeExhausted' },
  VM_CREATE_FAILED: { code: '3006', status: 500, key: 'vmCreateFailed' },
  CONTAINER_START_FAILED: { code: '3007', status: 500, key: 'containerStartFailed' },
  CLIENT_NOT_READY: { code: '3008', status: 409, key: 'clientNotReady' },
  HARDWARE_FAILED: { code: '3009', status: 502, key: 'hardwareFailed' },
  PACKAGE_INSTALL_FAILED: { code: '3010', status: 500, key: 'packageInstallFailed' },
  PACKAGE_UNINSTALL_FAILED: { code: '3011', status: 500, key: 'packageUninstallFailed' },
  PACKAGE_UPDATE_FAILED: { code: '3012', status: 500, key: 'packageUpdateFailed' },
  CONNECT_TIMEOUT: { code: '3013', status: 504, key: 'connectTimeout' },
  ARCHIVE_TOO_MANY_FILES: { code: '3014', status: 400, key: 'archiveTooManyFiles' },
  TAG_EXISTS: { code: '3015', status: 409, key: 'tagExists' },
  ARCHIVE_TOO_LARGE: { code: '3016', status: 413, key: 'archiveTooLarge' },
  ARCHIVE_RATIO: { code: '3017', status: 400, key: 'archiveRatio' },
  ARCHIVE_UNSAFE_PATH: { code: '3018', status: 400, key: 'archiveUnsafePath' },
  ARCHIVE_ENCRYPTED: { code: '3019', status: 400, key: 'archiveEncrypted' },
  ARCHIVE_NOT_ZIP: { code: '3020', status: 400, key: 'archiveNotZip' },
  ARCHIVE_EMPTY: { code: '3021', status: 400, key: 'archiveEmpty' },
  RUNTIME_NOT_INSTALLED: { code: '3101', status: 503, key: 'runtimeNotInstalled' },
  RUNTIME_INSTALLING: { code: '3102', status: 503, key: 'runtimeInstalling' },
  PROJECT_PUBLIC_FINAL: { code: '3103', status: 409, key: 'projectPublicFinal' },
  VERSION_NOT_NEWER: { code: '3104', status: 409, key: 'versionNotNewer' },
  RUNTIME_NOT_RUNNING: { code: '3105', status: 409, key: 'runtimeNotRunning' },
  CONTAINER_TYPE_NOT_OFFERED: { code: '3110', status: 403, key: 'containerTypeNotOffered' },
  NAME_INVALID: { code: '3106', status: 400, key: 'nameInvalid' },
  FILE_TOO_LARGE_TO_OPEN: { code: '3107', status: 413, key: 'fileTooLargeToOpen' },
  TOO_MANY_RUNTIMES: { code: '3108', status: 409, key: 'tooManyRuntimes' },
  CATALOGUE_ITEM_IN_USE: { code: '3109', status: 409, key: 'catalogueItemInUse' },
  // Datasets
  DATASET_PUBLISHED_FINAL: { code: '3201', status: 409, key: 'datasetPublishedFinal' },
  DATASET_PUBLIC_UNDELETABLE: { code: '3202', status: 409, key: 'datasetPublicUndeletable' },
  DATASET_GROUP_NOT_PRIVATE: { code: '3203', status: 409, key: 'datasetGroupNotPrivate' },
  DATASET_NOT_READY: { code: '3204', status: 409, key: 'datasetNotReady' },
  DATASET_ALREADY_ATTACHED: { code: '3205', status: 409, key: 'datasetAlreadyAttached' },
  DATASET_PUBLIC_FINAL: { code: '3206', status: 409, key: 'datasetPublicFinal' },
  // Courses and others
  COURSE_TAKEN_DOWN: { code: '4001', status: 410, key: 'courseTakenDown' },
  COURSE_CLOSED: { code: '4002', status: 410, key: 'courseClosed' },
  EXPERIMENT_REMOVED: { code: '4003', status: 410, key: 'experimentRemoved' },
  IMAGE_GENERATION_FAILED: { code: '4004', status: 502, key: 'imageGenerationFailed' },
  CERTIFICATE_NOT_FOUND: { code: '4005', status: 404, key: 'certificateNotFound' },
  INSUFFICIENT_POINTS: { code: '4006', status: 409, key: 'insufficientPoints' },
  EXCHANGE_LIMIT_EXCEEDED: { code: '4007', status: 409, key: 'exchangeLimitExceeded' },
  ADDRESS_INCOMPLETE: { code: '4008', status: 400, key: 'addressIncomplete' },
  // Courses
  COURSE_AUTHOR_NOT_CERTIFIED: { code: '4101', status: 403, key: 'courseAuthorNotCertified' },
  COURSE_SECTIONS_FULL: { code: '4102', status: 409, key: 'courseSectionsFull' },
  COURSE_TASKS_FULL: { code: '4103', status: 409, key: 'courseTasksFull' },
  COURSE_RESOURCES_FULL: { code: '4104', status: 409, key: 'courseResourcesFull' },
  COURSE_STATE_INVALID: { code: '4105', status: 409, key: 'courseStateInvalid' },
  COURSE_CODE_UNKNOWN: { code: '4106', status: 404, key: 'courseCodeUnknown' },
  COURSE_NOT_JOINED: { code: '4107', status: 403, key: 'courseNotJoined' },
  COURSE_CODE_UNAVAILABLE: { code: '4108', status: 503, key: 'courseCodeUnavailable' },
  COURSE_NOT_GRADABLE: { code: '4109', status: 409, key: 'courseNotGradable' },
  COURSE_PREVIEW_TOO_LARGE: { code: '4110', status: 413, key: 'coursePreviewTooLarge' },
  EXPERIMENT_CHECK_MISSING: { code: '4111', status: 404, key: 'experimentCheckMissing' },
  EXPERIMENT_NOT_STARTED: { code: '4112', status: 409, key: 'experimentNotStarted' },
  // Certificates
  CERT_NUMBER_REQUIRED: { code: '4401', status: 400, key: 'certNumberRequired' },
  CERT_NO_STUDENTS: { code: '4402', status: 400, key: 'certNoStudents' },
  CERT_ISSUANCE_STATE: { code: '4403', status: 409, key: 'certIssuanceState' },
  CERT_ALREADY_REVOKED: { code: '4404', status: 409, key: 'certAlreadyRevoked' },
  CERT_NOT_AUDITOR: { code: '4405', status: 403, key: 'certNotAuditor' },
  CERT_STUDENT_OUT_OF_SCOPE: { code: '4406', status: 403, key: 'certStudentOutOfScope' },
  CERT_LIST_INVALID: { code: '4407', status: 400, key: 'certListInvalid' },
  CERT_AUDITOR_EXISTS: { code: '4408', status: 409, key: 'certAuditorExists' },
  CERT_REVIEW_NEEDS_AUDITOR: { code: '4409', status: 409, key: 'certReviewNeedsAuditor' },
  // Events and contests
  EVENT_PHASE_CLOSED: { code: '4501', status: 409, key: 'eventPhaseClosed' },
  EVENT_NOT_ELIGIBLE: { code: '4502', status: 403, key: 'eventNotEligible' },
  EVENT_STATE_INVALID: { code: '4503', status: 409, key: 'eventStateInvalid' },
  EVENT_TEAM_INVALID: { code: '4504', status: 400, key: 'eventTeamInvalid' },
  EVENT_ALREADY_REGISTERED: { code: '4505', status: 409, key: 'eventAlreadyRegistered' },
  EVENT_SCORE_FINAL: { code: '4506', status: 409, key: 'eventScoreFinal' },
  EVENT_NOT_JUDGE: { code: '4507', status: 403, key: 'eventNotJudge' },
  EVENT_DAILY_LIMIT: { code: '4508', status: 429, key: 'eventDailyLimit' },
  EVENT_RESULTS_PUBLISHED: { code: '4509', status: 409, key: 'eventResultsPublished' },
  EVENT_JUDGE_EXISTS: { code: '4510', status: 409, key: 'eventJudgeExists' },
  EVENT_ASSIGNMENT_IMPOSSIBLE: { code: '4511', status: 409, key: 'eventAssignmentImpossible' },
  EVENT_SCORES_INCOMPLETE: { code: '4512', status: 409, key: 'eventScoresIncomplete' },
  EVENT_EVALUATION_MISSING: { code: '4513', status: 409, key: 'eventEvaluationMissing' },
  EVENT_NOT_QUALIFIED: { code: '4514', status: 403, key: 'eventNotQualified' },
  // Teaching schedules
  SCHEDULE_STATE_INVALID: { code: '4201', status: 409, key: 'scheduleStateInvalid' },
  SCHEDULE_TASK_CLOSED: { code: '4202', status: 409, key: 'scheduleTaskClosed' },
  SCHEDULE_NOT_IN_PROGRESS: { code: '4203', status: 409, key: 'scheduleNotInProgress' },
  // The live classroom
  CLASSROOM_SESSION_STATE_INVALID: { code: '4301', status: 409, key: 'classroomSessionStateInvalid' },
  // Institutions
  CUSTOMER_CODE_TAKEN: { code: '5001', status: 409, key: 'customerCodeTaken' },
  QUOTA_SCHOOLS: { code: '5002', status: 409, key: 'quotaSchools' },
  QUOTA_TEACHERS: { code: '5003', status: 409, key: 'quotaTeachers' },
  QUOTA_STUDENTS: { code: '5004', status: 409, key: 'quotaStudents' },
  ALSO_TEACHER_NEEDS_SCHOOL: { code: '5005', status: 400, key: 'alsoTeacherNeedsSchool' },
  // Roles
  ROLE_NAME_TAKEN: { code: '5006', status: 409, key: 'roleNameTaken' },
  ROLE_IN_USE: { code: '5007', status: 409, key: 'roleInUse' },
  ROLE_BUILT_IN: { code: '5008', status: 403, key: 'roleBuiltIn' },
  // Groups
  GROUP_CODE_INVALID: { code: '6001', status: 404, key: 'groupCodeInvalid' },
  GROUP_ALREADY_MEMBER: { code: '6002', status: 409, key: 'groupAlreadyMember' },
  GROUP_JOIN_PENDING: { code: '6003', status: 409, key: 'groupJoinPending' },
  GROUP_DISMISSED: { code: '6004', status: 410, key: 'groupDismissed' },
  GROUP_OWNER_CANNOT_QUIT: { code: '6005', status: 409, key: 'groupOwnerCannotQuit' },
  GROUP_OTHER_SCHOOL: { code: '6006', status: 403, key: 'groupOtherSchool' },
  GROUP_BATCH_ROWS_INVALID: { code: '6007', status: 400, key: 'groupBatchRowsInvalid' },
  GROUP_BATCH_TOO_MANY: { code: '6008', status: 400, key: 'groupBatchTooMany' },
  GROUP_REQUEST_DECIDED: { code: '6009', status: 409, key: 'groupRequestDecided' },
} as const;

export type ErrorName = keyof typeof ERRORS;
export type ErrorEntry = (typeof ERRORS)[ErrorName];
export type ErrorCode = ErrorEntry['code'];
export type ErrorKey = ErrorEntry['key'];

export const SUCCESS_CODE = ERRORS.SUCCESS.code;

const byCode = new Map<string, ErrorEntry>(Object.values(ERRORS).map((e) => [e.code, e]));

export function errorByCode(code: string): ErrorEntry | undefined {
  return byCode.get(code);
}

/** The JSON envelope of every API response. `errorCode` is always a string. */
export interface Envelope<T = unknown> {
  errorCode: string;
  errorMsg: string;
  data: T;
}
