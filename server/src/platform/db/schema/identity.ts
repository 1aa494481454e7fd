import { boolean, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { customers, schools } from './institutions.js';
import { users } from './users.js';

/**
 * Refresh tokens, stored as SHA-256 hashes. One sign-in starts a family; every refresh replaces the token with a
 * new one of the same family. A token presented after it was replaced means it leaked: the whole family is revoked.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    // The hourly cleanup deletes the tokens that expired a day ago.
    index('refresh_tokens_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The password attempts of an account key in its current window: those judged wrong and those still being judged.
 * One row per key, counted up by an upsert, which takes the row's lock and reads its latest version: attempts
 * running at once each count the others, where a count of rows would see only those already committed.
 */
export const loginAttempts = pgTable('login_attempts', {
  accountKey: text('account_key').primaryKey(),
  attempts: integer('attempts').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  /**
   * Once the key's attempts need the captcha, no attempt is judged before this moment: each judged attempt moves it
   * on by a delay that doubles (see the login service's backoff). Set when the attempt starts, so that attempts sent
   * together are not all judged.
   */
  retryAt: timestamp('retry_at', { withTimezone: true }),
});

/** Failed sign-ins, counted per address to decide when the captcha is required. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: id(),
    accountKey: text('account_key').notNull(),
    ip: text('ip').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_failures_account_idx').on(t.accountKey, t.createdAt),
    index('login_failures_ip_idx').on(t.ip, t.createdAt),
  ],
);

/**
 * Captchas: slider puzzles (the answer is the piece's x) and the classic image codes of the legacy form login
 * (the answer is the 4-digit number). The answer stays on the server; a passed captcha unlocks one sign-in.
 */
export const captchas = pgTable('captchas', {
  id: id(),
  kind: text('kind', { enum: ['slider', 'image'] })
    .notNull()
    .default('slider'),
  answerX: integer('answer_x').notNull(),
  tries: integer('tries').notNull().default(0),
  passedAt: timestamp('passed_at', { withTimezone: true }),
  usedAt: timestamp('used_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

export const VERIFY_SCENES = ['REGISTER', 'RESET_PWD', 'LOGIN', 'BIND'] as const;

/** Six-digit codes sent by SMS or email, bound to a scene and a target, single use. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    scene: text('scene', { enum: VERIFY_SCENES }).notNull(),
    target: text('target').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('verification_codes_target_idx').on(t.target, t.createdAt),
    index('verification_codes_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** Every message the platform sends; in the embedded default nothing else delivers them. */
export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    target: text('target').notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body').notNull(),
    /** Which messenger delivered it: 'outbox' (nobody else), 'smtp' or 'sms-http'. */
    deliveredBy: text('delivered_by').notNull(),
    delivered: boolean('delivered').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

/** Points: every change of a user's balance is one row; the balance is their sum. */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('points_ledger_user_idx').on(t.userId)],
);

/** Address ranges of a customer's schools: the request shield never blocks them. */
export const addressRanges = pgTable(
  'address_ranges',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    range: text('range').notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('address_ranges_customer_idx').on(t.customerId)],
);

export const CERTIFICATION_STATUSES = ['pending', 'certified', 'rejected'] as const;

/** A teacher's request to be certified, with mainland or non-mainland documents, reviewed by an administrator. */
export const teacherCertifications = pgTable(
  'teacher_certifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id),
    region: text('region', { enum: ['mainland', 'other'] }).notNull(),
    schoolName: text('school_name').notNull(),
    teacherNumber: text('teacher_number').notNull().default(''),
    idNumber: text('id_number').notNull().default(''),
    phone: text('phone').notNull().default(''),
    documentType: text('document_type', { enum: ['passport', 'other', 'id'] }).notNull(),
    documentNumber: text('document_number').notNull().default(''),
    contact: text('contact').notNull().default(''),
    status: text('status', { enum: CERTIFICATION_STATUSES }).notNull().default('pending'),
    reason: text('reason').notNull().default(''),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('teacher_certifications_user_idx').on(t.userId),
    index('teacher_certifications_customer_idx').on(t.customerId, t.status),
  ],
);

/** An OpenID Connect identity provider a customer (or the public space) signs its users in with. */
export const ssoProviders = pgTable(
  'sso_providers',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    /** The `{type}` in the third-party paths, unique within the customer. */
    type: text('type').notNull(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    scopes: text('scopes').notNull().default('openid profile email'),
    /** Create an account on first sign-in; otherwise only linked accounts may sign in. */
    autoCreate: boolean('auto_create').notNull().default(true),
    /**
     * The school whose roster an account created at first sign-in joins (as a student with no class yet), so that
     * its administrators see it, can switch it off and put it in a class. Without one it belongs to the customer
     * only.
     */
    schoolId: uuid('school_id').references(() => schools.id, { onDelete: 'set null' }),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [unique('sso_providers_scope_type').on(t.customerId, t.type).nullsNotDistinct()],
);

/** Which provider account belongs to which user. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => ssoProviders.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('user_identities_provider_subject').on(t.providerId, t.subject)],
);

/** A sign-in started at a provider: the PKCE verifier, nonce and where to return, for 10 minutes. */
export const ssoStates = pgTable('sso_states', {
  state: text('state').primaryKey(),
  providerId: uuid('provider_id')
    .notNull()
    .references(() => ssoProviders.id, { onDelete: 'cascade' }),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  targetUrl: text('target_url').notNull().default(''),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
