import {
  ZPage,
  ZResetPasswordByAdminRequest,
  ZStudent,
  ZStudentDetail,
  ZSwitchRequest,
  type TStudent,
} from '@aiedu/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { changeAccount, getStudent, listPeople, ZPeopleQuery } from './people.service.js';

const STUDENTS = '/api/v1/student';
const ZId = z.object({ id: z.uuid() });

/**
 * Student management of the teaching side (spec 7 `/api/v1/student`): teachers and administrators search the students
 * of their scope (a teacher's: their school), read one, set a password the student must change, switch one off. The
 * same services as the school administration's student calls; creating, editing and importing stay there.
 */
export const studentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['institution'];
  const config = { permission: 'studentAccount.manage' as const };

  app.get(
    STUDENTS,
    {
      config,
      schema: {
        tags,
        summary: 'Search the students of the caller’s scope (a teacher’s: their school)',
        querystring: ZPeopleQuery,
        response: envelopeOf(ZPage(ZStudent)),
      },
    },
    async (request) => {
      const found = await listPeople(ctx, requireAuth(request), 'student', request.query);
      return ok({ ...found, list: found.list as TStudent[] });
    },
  );
  app.get(
    `${STUDENTS}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'One student with the names of their class and school',
        params: ZId,
        response: envelopeOf(ZStudentDetail),
      },
    },
    async (request) => ok(await getStudent(ctx, requireAuth(request), request.params.id)),
  );
  for (const [suffix, body, summary] of [
    ['password', ZResetPasswordByAdminRequest, 'Set a student’s password (6–20); they must change it at next sign-in'],
    ['status', ZSwitchRequest, 'Switch a student on or off'],
  ] as const) {
    app.put(
      `${STUDENTS}/:id/${suffix}`,
      { config, schema: { tags, summary, params: ZId, body, response: envelopeOf(z.null()) } },
      async (request) => {
        await changeAccount(ctx, request, requireAuth(request), 'student', request.params.id, request.body);
        return ok(null);
      },
    );
  }
};
