import { sql } from 'drizzle-orm';
import { users } from './schema/index.js';

/** A user as others see them in lists: their real name, or their username when they gave none. */
export const userDisplayName = sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username})`;
