import {
  API,
  LIMITS,
  ZCodeLoginRequest,
  ZContact,
  ZListQuery,
  ZLoginResponse,
  ZOutboxItem,
  ZPage,
  ZRegisterByPhoneRequest,
  ZResetPasswordRequest,
  ZSendCodeRequest,
  ZUpdateUserInfoRequest,
  ZUserInfo,
} from '@aiedu/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/auth-guard.js';
import type { AppContext } from '../../platform/context.js';
import { envelopeOf, ok } from '../../platform/envelope.js';
import { requestLanguage } from '../../platform/i18n.js';
import { listOutbox } from '../../platform/messaging/outbox.repository.js';
import type { Messenger } from '../../platform/messaging/messenger.js';
import { decodePassword } from '../../platform/password-policy.js';
import {
  assertCodeTarget,
  bindContact,
  loginWithCode,
  registerByPhone,
  resetPasswordWithCode,
} from './account.service.js';
import { removeAvatar, setAvatar } from './avatar.service.js';
import { getPointsTotal } from './points.service.js';
import { getBoundPhone, getUserInfo, updateUserInfo } from './profile.service.js';
import { sendCode } from './verification.service.js';
import { readUpload } from '../../platform/uploads.js';

/** The reset payload: the contact as `user`, or as `emailOrPhone` (its name in the product's reset form). */
const ZResetPasswordBody = ZResetPasswordRequest.extend({
  user: ZResetPasswordRequest.shape.user.optional(),
  emailOrPhone: ZResetPasswordRequest.shape.user.optional().describe('the same as `user`'),
}).refine((body) => (body.user ?? body.emailOrPhone) !== undefined, {
  message: 'user or emailOrPhone is required',
  path: ['user'],
});

const requester = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});

export const userRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; messengers: Messenger[] }> = async (
  app,
  { ctx, messengers },
) => {
  const tags = ['user'];

  app.post(
    API.sendCode,
    {
      schema: {
        tags,
        summary: 'Send a six-digit code by SMS or email',
        body: ZSendCodeRequest,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      const { scene, target, custcode } = request.body;
      await sendCode(ctx, messengers, { scene, target, ip: request.ip, language: requestLanguage(request) }, () =>
        assertCodeTarget(ctx, scene, target, custcode),
      );
      return ok(null);
    },
  );

  app.get(
    API.smsToSelf,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "Send a code to the caller's own bound phone (scene BIND), to confirm a change",
        response: envelopeOf(z.object({ target: z.string().describe('The phone, masked') })),
      },
    },
    async (request) => {
      const phone = await getBoundPhone(ctx, requireAuth(request).userId);
      await sendCode(ctx, messengers, {
        scene: 'BIND',
        target: phone,
        ip: request.ip,
        language: requestLanguage(request),
      });
      return ok({ target: `${phone.slice(0, 3)}****${phone.slice(-4)}` });
    },
  );

  app.post(
    API.registerByPhone,
    {
      schema: {
        tags,
        summary: 'Sign up with a phone number and its code (public space)',
        body: ZRegisterByPhoneRequest,
        response: envelopeOf(z.object({ id: z.string() })),
      },
    },
    async (request) => {
      const { phone, password, verifyCode } = request.body;
      return ok(await registerByPhone(ctx, { phone, verifyCode, password: decodePassword(password) }));
    },
  );

  app.post(
    API.codeLogin,
    {
      schema: {
        tags,
        summary: 'Sign in with a code sent to a phone or email',
        body: ZCodeLoginRequest,
        response: envelopeOf(ZLoginResponse),
      },
    },
    async (request) => ok(await loginWithCode(ctx, request.body, requester(request))),
  );

  app.post(
    API.resetPassword,
    {
      schema: {
        tags,
        summary: 'Reset a password with a code',
        body: ZResetPasswordBody,
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      const { password, verifyCode, custcode, user, emailOrPhone } = request.body;
      const input = { user: (user ?? emailOrPhone)!, verifyCode, custcode, password: decodePassword(password) };
      await resetPasswordWithCode(ctx, input);
      return ok(null);
    },
  );

  app.put(
    API.bindContact,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Link a phone or email proven with a BIND code',
        body: z.object({ target: ZContact, verifyCode: z.string().regex(/^\d{6}$/) }),
        response: envelopeOf(ZUserInfo),
      },
    },
    async (request) => {
      const { userId } = requireAuth(request);
      await bindContact(ctx, userId, request.body);
      return ok(await getUserInfo(ctx, userId));
    },
  );

  for (const url of [API.userInfo, API.eduUserInfo]) {
    app.get(
      url,
      {
        config: { auth: 'required', allowPendingPasswordChange: true },
        schema: { tags, summary: "The caller's profile", response: envelopeOf(ZUserInfo) },
      },
      async (request) => ok(await getUserInfo(ctx, requireAuth(request).userId)),
    );
  }

  app.put(
    API.userInfo,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: "Update the caller's profile",
        body: ZUpdateUserInfoRequest,
        response: envelopeOf(ZUserInfo),
      },
    },
    async (request) => ok(await updateUserInfo(ctx, requireAuth(request).userId, request.body)),
  );

  app.post(
    API.avatarUpload,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Upload an avatar (multipart field "file": JPG/PNG/BMP/JPEG, at most 5 MB)',
        consumes: ['multipart/form-data'],
        response: envelopeOf(z.object({ avatarUrl: z.string() })),
      },
    },
    async (request) => {
      const file = await readUpload(request, LIMITS.avatarBytes);
      return ok(await setAvatar(ctx, requireAuth(request).userId, file.filename, file.bytes));
    },
  );

  app.put(
    API.avatar,
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Reset the avatar to the default',
        body: z.object({ avatar: z.null() }),
        response: envelopeOf(z.null()),
      },
    },
    async (request) => {
      await removeAvatar(ctx, requireAuth(request).userId);
      return ok(null);
    },
  );

  app.get(
    API.pointsTotal,
    {
      config: { auth: 'required' },
      schema: { tags, summary: "The caller's points balance", response: envelopeOf(z.number().int()) },
    },
    async (request) => ok(await getPointsTotal(ctx.db, requireAuth(request).userId)),
  );

  app.get(
    API.outbox,
    {
      config: { permission: 'outbox.view' },
      schema: {
        tags: ['system'],
        summary: 'Messages sent by the platform, newest first',
        querystring: ZListQuery,
        response: envelopeOf(ZPage(ZOutboxItem)),
      },
    },
    async (request) => ok(await listOutbox(ctx.db, request.query)),
  );
};
