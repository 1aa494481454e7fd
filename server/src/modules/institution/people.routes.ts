import {
  ZCreateStudentRequest,
  ZCreateTeacherRequest,
  ZPage,
  ZResetPasswordByAdminRequest,
  ZStudent,
  ZSwitchRequest,
  ZTeacher,
  ZUpdateStudentRequest,
  ZUpdateTeacherRequest,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { callerScope } from '../../platform/tenancy.js';
import { sendXlsx } from '../../platform/xlsx.js';
import { HEADERS } from './import.messages.js';
import { buildTemplate, importPeople } from './people-import.service.js';
import {
  ZPeopleQuery,
  changeAccount,
  createStudent,
  createTeacher,
  listPeople,
  selectPeople,
  updatePerson,
} from './people.service.js';
import { readUpload } from '../../platform/uploads.js';

/** An import file of 10,000 rows is about 400 KB; 20 MB leaves room for formatting without inviting abuse. */
const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

const ZId = z.object({ id: z.uuid() });

/**
 * Where each family answers: the school administration's paths, and the teachers also under the organisation
 * administrators' family (spec 7: `/api/v1/admin_organize/teachers`), the same calls on the same rules.
 */
const FAMILIES = [
  ['teacher', '/gw/admin/api/v1/school/teachers'],
  ['teacher', '/api/v1/admin_organize/teachers'],
  ['student', '/gw/admin/api/v1/school/students'],
] as const;

/** Teachers and students of the caller's schools: list, create within quota, switch, reset password. */
export const peopleRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['institution'];
  for (const [kind, base] of FAMILIES) {
    const config = { permission: kind === 'teacher' ? ('teacher.manage' as const) : ('student.manage' as const) };
    const item = kind === 'teacher' ? ZTeacher : ZStudent;

    app.get(
      base,
      {
        config,
        schema: {
          tags,
          summary: `${kind}s in the caller's scope`,
          querystring: ZPeopleQuery,
          response: envelopeOf(ZPage(item)),
        },
      },
      async (request) => ok(await listPeople(ctx, requireAuth(request), kind, request.query)),
    );
    app.put(
      `${base}/:id/status`,
      {
        config,
        schema: {
          tags,
          summary: `Switch a ${kind} on or off`,
          params: ZId,
          body: ZSwitchRequest,
          response: envelopeOf(z.null()),
        },
      },
      async (request) => {
        await changeAccount(ctx, request, requireAuth(request), kind, request.params.id, request.body);
        return ok(null);
      },
    );
    app.put(
      `${base}/:id/password`,
      {
        config,
        schema: {
          tags,
          summary: `Set a ${kind}'s password (6–20); they must change it at next sign-in`,
          params: ZId,
          body: ZResetPasswordByAdminRequest,
          response: envelopeOf(z.null()),
        },
      },
      async (request) => {
        await changeAccount(ctx, request, requireAuth(request), kind, request.params.id, request.body);
        return ok(null);
      },
    );
    app.put(
      `${base}/:id`,
      {
        config,
        schema: {
          tags,
          summary: `Edit a ${kind}`,
          params: ZId,
          body: kind === 'teacher' ? ZUpdateTeacherRequest : ZUpdateStudentRequest,
          response: envelopeOf(z.null()),
        },
      },
      async (request) => {
        await updatePerson(ctx, request, requireAuth(request), kind, request.params.id, request.body);
        return ok(null);
      },
    );
    app.get(
      `${base}/export`,
      {
        config,
        schema: {
          tags,
          summary: `Export the matching ${kind}s to xlsx`,
          querystring: ZPeopleQuery.omit({ page: true, size: true }),
        },
      },
      async (request, reply) => {
        const scope = await callerScope(ctx.db, requireAuth(request));
        const texts = HEADERS[requestLanguage(request)];
        async function* batches() {
          for (let page = 1; ; page++) {
            const rows = await selectPeople(ctx.db, scope, kind, { ...request.query, page, size: 1000 });
            if (rows.length === 0) return;
            yield rows;
          }
        }
        type Person = Awaited<ReturnType<typeof selectPeople>>[number];
        const pick = (r: Person, key: 'schoolNumber' | 'remark' | 'phone') =>
          (r as Record<string, unknown>)[key] as string | null;
        return sendXlsx<Person>(
          reply,
          `${kind}s.xlsx`,
          kind,
          [
            { header: texts.username, value: (r) => r.username },
            { header: texts.realName, value: (r) => r.realName },
            kind === 'teacher'
              ? { header: texts.phone, value: (r) => pick(r, 'phone') }
              : { header: texts.schoolNumber, value: (r) => pick(r, 'schoolNumber') },
            ...(kind === 'teacher' ? [{ header: texts.remark, value: (r: Person) => pick(r, 'remark') }] : []),
            { header: texts.status, value: (r) => (r.enabled ? texts.on : texts.off) },
            { header: texts.createdAt, width: 24, value: (r) => r.createdAt },
          ],
          batches(),
        );
      },
    );
    app.post(
      base,
      {
        config,
        schema: {
          tags,
          summary: `Create a ${kind} within the ${kind} quota${kind === 'student' ? ', in a class' : ''}`,
          body: kind === 'teacher' ? ZCreateTeacherRequest : ZCreateStudentRequest,
          response: envelopeOf(item),
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const body = request.body as z.infer<typeof ZCreateTeacherRequest> | z.infer<typeof ZCreateStudentRequest>;
        return ok(
          'classId' in body
            ? await createStudent(ctx, request, auth, body)
            : await createTeacher(ctx, request, auth, body),
        );
      },
    );
    app.get(
      `${base}/template`,
      { config, schema: { tags, summary: `The ${kind} import template (xlsx) in the request language` } },
      async (request, reply) =>
        reply
          .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${kind}s-template.xlsx"`)
          .send(await buildTemplate(requestLanguage(request), kind)),
    );
    app.post(
      `${base}/import`,
      {
        config,
        schema: {
          tags,
          summary: `Import ${kind}s from xlsx or CSV (multipart "file"): a dry run lists every bad row; a real run is all or nothing`,
          consumes: ['multipart/form-data'],
          querystring: z.object({ schoolId: z.uuid(), dryRun: z.enum(['true', 'false']).default('true') }),
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
          await importPeople(ctx, request, requireAuth(request), {
            kind,
            schoolId: request.query.schoolId,
            dryRun: request.query.dryRun === 'true',
            file: file.bytes,
            fileName: file.filename,
            language: requestLanguage(request),
          }),
        );
      },
    );
  }
};
