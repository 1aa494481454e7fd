import { ROLES, type TUpdateUserInfoRequest, type TUserInfo } from '@aiedu/contracts';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import { preparedStatement } from '../../platform/db/prepared.js';
import { customers, users } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { findUserById } from '../auth/auth.repository.js';

type UserRow = typeof users.$inferSelect;

/**
 * What the account says it is: its own choice, or else what its institution made it (a teacher or a student account),
 * so that a teacher the school created is not asked again whether they teach.
 */
function identityOf(user: UserRow): TUserInfo['identity'] {
  if (user.identity) return user.identity;
  if (user.roles.includes(ROLES.teacher)) return 'teacher';
  if (user.roles.includes(ROLES.student)) return 'student';
  return null;
}

function presentUser(user: UserRow, custcode: string, avatarUrl: string | null): TUserInfo {
  return {
    id: user.id,
    username: user.username,
    domainId: user.customerId,
    custcode,
    roles: user.roles,
    nickname: user.nickname,
    realName: user.realName,
    avatarUrl,
    gender: user.gender,
    birthDay: user.birthDay,
    identity: identityOf(user),
    // Province, then city: a city saved without its province is not shown in the province's place.
    areas: user.province ? [user.province, user.city].filter(Boolean) : [],
    schoolName: user.schoolName,
    signature: user.signature,
    phone: user.phone,
    email: user.email,
    judges: false,
    mustChangePassword: user.mustChangePassword,
  };
}

/** The account with its customer's code, in one statement: what every page of a signed-in visitor asks first. */
const userWithCustcode = preparedStatement((db, name) =>
  db
    .select({ user: users, custcode: customers.code })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.customerId))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare(name),
);

export async function getUserInfo(ctx: AppContext, userId: string): Promise<TUserInfo> {
  const [row] = await userWithCustcode(ctx.db).execute({ userId });
  if (!row) throw new AppError('TOKEN_EXPIRED');
  const { user, custcode } = row;
  const avatarUrl = user.avatarKey ? ctx.storage.signedUrl(user.avatarKey, { expiresInSeconds: 7 * 86_400 }) : null;
  return presentUser(user, custcode ?? '', avatarUrl);
}

export async function updateUserInfo(ctx: AppContext, userId: string, input: TUpdateUserInfoRequest) {
  const { birthDay, ...rest } = input;
  const values = {
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    ...(birthDay !== undefined ? { birthDay } : {}),
  };
  if (Object.keys(values).length > 0) await ctx.db.update(users).set(values).where(eq(users.id, userId));
  return getUserInfo(ctx, userId);
}

/** The phone the caller bound to the account; a caller without one cannot be sent a code this way. */
export async function getBoundPhone(ctx: AppContext, userId: string): Promise<string> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('TOKEN_EXPIRED');
  if (!user.phone) throw new AppError('CONTACT_INVALID');
  return user.phone;
}
