import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { diskSpace, sameDisk } from '../../platform/disk-space.js';
import { envelopeOf, ok } from '../../platform/envelope.js';

const ZDisk = z.object({
  kind: z.enum(['data', 'backups']),
  path: z.string(),
  freeBytes: z.number(),
  totalBytes: z.number(),
});

const ZDiskSpace = z.object({
  floorBytes: z.number().describe('MIN_FREE_DISK_MB in bytes; 0 when no floor is kept'),
  disks: z.array(ZDisk).describe('the data folder, then the daily backups folder when it is on another disk'),
});

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
      const dataDir = ctx.config.dataDir;
      const disks: z.infer<typeof ZDisk>[] = [{ kind: 'data', path: dataDir, ...(await diskSpace(dataDir)) }];
      const backups = ctx.config.scheduledBackups?.dir;
      if (backups && !sameDisk(backups, dataDir)) {
        disks.push({ kind: 'backups', path: backups, ...(await diskSpace(backups)) });
      }
      return ok({ floorBytes: ctx.config.minFreeDiskMb * 2 ** 20, disks });
    },
  );
};
