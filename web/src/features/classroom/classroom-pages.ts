/** The live classroom's screen, loaded as its own chunk when it opens. */
export { ClassroomPage } from './classroom-page';
