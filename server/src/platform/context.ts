import type { Config } from '../config.js';
import type { SessionEvents } from './auth/session-events.js';
import type { RedisCluster } from './cluster.js';
import type { AccessTokens } from './auth/tokens.js';
import type { Db } from './db/client.js';
import type { RequestShield } from './shield.js';
import type { FileStorage } from './storage/storage.js';

/** What every module's routes and services are given: configuration, database, tokens, storage and the clock. */
export interface AppContext {
  config: Config;
  db: Db;
  tokens: AccessTokens;
  storage: FileStorage;
  shield: RequestShield;
  /** Sign-ins that ended in this process (logout, password change), for whoever holds something open for them. */
  sessions: SessionEvents;
  /** The deployment's other processes through Redis (`REDIS_URL`); null when this process is on its own. */
  cluster: RedisCluster | null;
  /** The current time; tests move it forward instead of waiting. */
  now: () => Date;
  /** A fresh random course code; tests pass one that repeats itself to make codes collide. */
  courseCode: () => string;
}
