export * from './institutions.js';
export * from './users.js';
export * from './identity.js';
export * from './audit.js';
export * from './courses.js';
export * from './projects.js';
export * from './system.js';
export * from './schedules.js';
