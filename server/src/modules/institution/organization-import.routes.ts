import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { readUpload } from '../../platform/uploads.js';
import { ORGANIZATION_KINDS, importOrganizations, organizationTemplate } from './organization-import.service.js';

const IMPORT = '/api/v1/admin_super/import';
/** As the teacher and student imports: 10,000 rows are about 400 KB, and formatting has room. */
const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** Super administrators' bulk import of customers and schools (spec 7 `admin_super/import`). */
export const organizationImportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['institution'];
  const config = { permission: 'customer.manage' as const };
  const kind = z.enum(ORGANIZATION_KINDS);

  app.get(
    `${IMPORT}/template`,
    {
      config,
      schema: {
        tags,
        summary: 'The import template (xlsx) of customers or schools, headers in the request language',
        querystring: z.object({ kind }),
      },
    },
    async (request, reply) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${request.query.kind}-template.xlsx"`)
        .send(await organizationTemplate(requestLanguage(request), request.query.kind)),
  );
  app.post(
    IMPORT,
    {
      config,
      schema: {
        tags,
        summary:
          'Import customers (with their first administrators) or schools from xlsx or CSV (multipart "file"): a dry run lists every bad row; a real run is all or nothing',
        consumes: ['multipart/form-data'],
        querystring: z.object({ kind, dryRun: z.enum(['true', 'false']).default('true') }),
        response: envelopeOf(
          z.object({
            total: z.number().int(),
            imported: z.number().int(),
            problems: z.array(z.object({ row: z.number().int(), reason: z.string(), message: z.string() })),
          }),
        ),
      },
    },
    async (request) => {
      const file = await readUpload(request, IMPORT_MAX_BYTES);
      return ok(
        await importOrganizations(ctx, request, {
          kind: request.query.kind,
          dryRun: request.query.dryRun === 'true',
          file: file.bytes,
          fileName: file.filename,
          language: requestLanguage(request),
        }),
      );
    },
  );
};
