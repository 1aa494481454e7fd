import { COURSE_API, SESSION_COOKIES } from '@aiedu/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { PageFiller } from '../../platform/web-app.js';
import { getCourseDetail } from './centre.service.js';

/**
 * A course's page as a visitor opens it from a link: its name, by-line and description in the page's frame
 * (web/vite.config.ts, FRAMED_PAGES), read before any of the app's code has arrived, with the course as
 * `GET /api/v1/courses/:id` answers a visitor, so the app's first render draws the same page without asking again.
 * Only what everyone may see: a course a visitor cannot open, and every page of a signed-in user (whose page shows
 * their own progress), get the plain frame.
 */
export function courseFrame(app: FastifyInstance, ctx: AppContext): PageFiller {
  return async ({ courseId = '' }, request) => {
    if (!isUuid(courseId)) return null;
    const cookies = request.headers.cookie ? app.parseCookie(request.headers.cookie) : {};
    if (cookies[SESSION_COOKIES.token] || cookies[SESSION_COOKIES.refreshToken]) return null;
    try {
      const course = await getCourseDetail(ctx, null, courseId);
      return {
        texts: {
          title: course.name,
          name: course.ownerName,
          version: String(course.learnerVersionNumber ?? ''),
          description: course.description,
        },
        data: { api: `${COURSE_API.base}/${courseId}`, body: course },
      };
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
  };
}
