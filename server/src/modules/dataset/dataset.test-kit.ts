import { existsSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  DATASET_API,
  datasetApi,
  GROUP_API,
  groupApi,
  ROLES,
  type TDatasetDetail,
  type TDatasetVersion,
} from '@aiedu/contracts';
import type { Config } from '../../config.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { b64, send, type Reply } from '../course/upload-test-kit.js';
import { extractionsRunning } from './dataset-extract.js';

/** A parsed answer, read freely by the tests: whatever its shape, the assertions say what it must be. */
type Json = ReturnType<typeof JSON.parse>;

/** The people of the dataset suites: two of one school, one of another school, and a learner with no school. */
export type Who = 'owner' | 'classmate' | 'stranger' | 'learner';

export interface DatasetWorld {
  t: TestApp;
  base: string;
  tokens: Record<Who, string>;
  call(who: Who, method: string, url: string, payload?: object): Promise<{ status: number; body: Json }>;
  createDataset(who: Who, fields?: object): Promise<TDatasetDetail>;
  /** A whole zip sent through tus: creation, then one PATCH; answers the finishing reply. */
  upload(who: Who, datasetId: string, bytes: Buffer, filename?: string): Promise<Reply>;
  /** The version once it is no longer processing. */
  settled(who: Who, datasetId: string, versionId: string): Promise<TDatasetVersion>;
  /** A group of `owner`'s that `members` joined by its code. */
  groupWith(owner: Who, members: Who[]): Promise<string>;
  /** Files left in the upload folders and the dataset's stored files (nothing, after a refusal). */
  leftovers(datasetId: string): string[];
}

export async function createDatasetWorld(config: Partial<Config> = {}): Promise<DatasetWorld> {
  const t = await createTestApp({ config });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const school = await buildCustomer(t.database.db);
  const other = await buildCustomer(t.database.db);
  const tokens = {} as Record<Who, string>;
  for (const [who, customer, role] of [
    ['owner', school, ROLES.teacher],
    ['classmate', school, ROLES.student],
    ['stranger', other, ROLES.teacher],
  ] as const) {
    const user = await buildUser(t.database.db, { customerId: customer.id, username: who, roles: [role] });
    tokens[who] = await signIn(t.app, customer.code, who, user.password);
  }
  const learner = await buildUser(t.database.db, { customerId: null, username: 'learner', roles: [ROLES.student] });
  tokens.learner = await signIn(t.app, '', 'learner', learner.password);

  const call = async (who: Who, method: string, url: string, payload?: object) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      payload,
      headers: { 'x-authorization': tokens[who] },
    });
    return { status: res.statusCode, body: res.json() };
  };

  async function settled(who: Who, datasetId: string, versionId: string) {
    for (let i = 0; i < 400; i++) {
      const { body } = await call(who, 'GET', datasetApi(datasetId).version(versionId));
      if (body.data?.state !== 'processing') {
        // The version is final before its zip is removed: wait for the extraction's last step too.
        await extractionsRunning();
        return body.data;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('version still processing');
  }

  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.join(entry.parentPath, entry.name))
      : [];

  return {
    t,
    base,
    tokens,
    call,
    settled,
    async createDataset(who, fields = {}) {
      const { body } = await call(who, 'POST', DATASET_API.base, { name: 'Flowers', ...fields });
      if (body.errorCode !== '1000') throw new Error(JSON.stringify(body));
      return body.data;
    },
    async upload(who, datasetId, bytes, filename = 'data.zip') {
      const created = await send(base, tokens[who], 'POST', DATASET_API.uploads, {
        'upload-length': bytes.length,
        'upload-metadata': `datasetId ${b64(datasetId)},filename ${b64(filename)}`,
      });
      if (created.status !== 201) return created;
      const location = new URL(created.headers.location!, base).pathname;
      return send(
        base,
        tokens[who],
        'PATCH',
        location,
        { 'upload-offset': 0, 'content-type': 'application/offset+octet-stream' },
        bytes,
      );
    },
    async groupWith(owner, members) {
      const { body } = await call(owner, 'POST', GROUP_API.base, { name: 'Robotics club' });
      const groupId = body.data.id as string;
      const code = (await call(owner, 'GET', groupApi(groupId).base)).body.data.invitation.code;
      for (const member of members) await call(member, 'POST', GROUP_API.join, { code });
      return groupId;
    },
    leftovers(datasetId) {
      return [
        ...walk(path.join(t.dataDir, 'uploads', 'datasets')),
        ...walk(path.join(t.dataDir, 'uploads', 'dataset-zips')),
        ...walk(path.join(t.storage.localDir ?? t.dataDir, 'datasets', datasetId)),
      ];
    },
  };
}
