import { ZDiskSpace, type TDiskSpace } from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.js';
import { diskSpace, floorState, sameDisk } from '../../platform/disk-space.js';
import { envelopeOf, ok } from '../../platform/envelope.js';

/**
 * How full the server's disks are, for the super administrators: the data folder's (database, stored files,
 * workspaces) against the `MIN_FREE_DISK_MB` floor, and the daily backups' folder when it is on a disk of its own.
 */
export const diskRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/v1/admin_super/disk',
    {
      config: { permission: 'system.manage' },
      schema: {
        tags: ['system'],
        summary: "Free space of the server's disks, and the floor kept free (MIN_FREE_DISK_MB)",
        response: envelopeOf(ZDiskSpace),
      },
    },
    async () => {
      const { dataDir, minFreeDiskMb } = ctx.config;
      const data = await diskSpace(dataDir);
      const disks: TDiskSpace['disks'] = [{ kind: 'data', path: dataDir, ...data }];
      const backups = ctx.config.scheduledBackups?.dir;
      if (backups && !sameDisk(backups, dataDir)) {
        disks.push({ kind: 'backups', path: backups, ...(await diskSpace(backups)) });
      }
      return ok({ floorBytes: minFreeDiskMb * 2 ** 20, state: floorState(data.freeBytes, minFreeDiskMb), disks });
    },
  );
};
