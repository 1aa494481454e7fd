import type { ErrorKey } from '@aiedu/contracts';
import type admin from './en/admin.json';
import type catalogue from './en/catalogue.json';
import type certDesign from './en/certDesign.json';
import type certificate from './en/certificate.json';
import type classroom from './en/classroom.json';
import type common from './en/common.json';
import type course from './en/course.json';
import type dataset from './en/dataset.json';
import type event from './en/event.json';
import type eventReview from './en/eventReview.json';
import type group from './en/group.json';
import type home from './en/home.json';
import type legal from './en/legal.json';
import type profile from './en/profile.json';
import type project from './en/project.json';
import type schedule from './en/schedule.json';
import type screens from './en/screens.json';
import type security from './en/security.json';
import type sign from './en/sign.json';

/**
 * The texts of one language, by namespace: `locales/<language>/<namespace>.json`, plus `errors`,
 * the server's error catalogue from '@aiedu/contracts' (the web shows exactly the server's texts).
 */
export interface Resources {
  common: typeof common;
  screens: typeof screens;
  home: typeof home;
  legal: typeof legal;
  sign: typeof sign;
  profile: typeof profile;
  course: typeof course;
  project: typeof project;
  admin: typeof admin;
  security: typeof security;
  catalogue: typeof catalogue;
  schedule: typeof schedule;
  classroom: typeof classroom;
  dataset: typeof dataset;
  group: typeof group;
  certificate: typeof certificate;
  certDesign: typeof certDesign;
  event: typeof event;
  eventReview: typeof eventReview;
  errors: Record<ErrorKey, string>;
}

export type Namespace = keyof Resources;

/** Loaded before the first render: the layout and every screen title need them. */
export const STARTUP_NAMESPACES: readonly Namespace[] = ['common', 'screens'];

export type ScreenKey = keyof typeof screens;
