import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CLASSROOM_API,
  classroomApi,
  classroomSessionApi,
  type TClientMessage,
  type TServerMessage,
} from '@aiedu/contracts';
import WebSocket from 'ws';
import { openDatabase } from '../server/src/platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../server/src/platform/db/migrations.js';
import { SECTIONS, call, inBatches, publishCourse, seed, signIn, type SeededClass } from './classroom-setup.js';
import { percentile } from './load.js';
import { createScratchDatabase } from './scratch-database.js';
import { SERVER_MAIN, cpuSeconds, settled, startServerProcess, stopServerProcess } from './server-process.js';

/** One class of 60 moved 50 times (after 5 moves not counted); then 20 classes of 40 moved at once, 10 times. */
const ONE_CLASS = 60;
const MOVES = 50;
const MANY_CLASSES = 20;
const MANY_SIZE = 40;
const ROUNDS = 10;
const WARM_UP = 5;
/** A move not seen by every student within this is a failure, and the benchmark stops. */
const MOVE_TIMEOUT_MS = 15_000;
/** Sockets opened (and sign-ins made) at once while setting up. */
const SETUP_CONCURRENCY = 20;

/** A live socket of the benchmark: it notes when each message arrived, before reading it. */
class Live {
  refusals = 0;
  /** The last move this student saw. */
  seen = -1;

  private constructor(
    readonly ws: WebSocket,
    onMessage: (live: Live, message: TServerMessage, at: number) => void,
  ) {
    ws.on('message', (data) => {
      const at = performance.now();
      const message = JSON.parse(String(data)) as TServerMessage;
      if (message.type === 'refused') this.refusals++;
      onMessage(this, message, at);
    });
  }

  static async open(base: string, token: string, onMessage: (live: Live, message: TServerMessage, at: number) => void) {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${CLASSROOM_API.live}?token=${token}&language=en`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new Live(ws, onMessage);
  }

  send(message: TClientMessage) {
    this.ws.send(JSON.stringify(message));
  }
}

interface Move {
  n: number;
  sectionId: string;
  sentAt: number;
  /** Students who received the move, and when the last of them did. */
  received: number;
  lastAt: number;
  /** Students the teacher's roster shows on the new section, and when the last of them showed there. */
  placed: Set<string>;
  placedAt: number;
  done: () => void;
}

/** A classroom of the benchmark: a schedule in progress, its lesson being taught, its teacher's and students' sockets. */
class Room {
  teacher!: Live;
  students: Live[] = [];
  pending: Move | null = null;
  private moves = 0;

  constructor(
    readonly scheduleId: string,
    readonly sessionId: string,
    readonly size: number,
  ) {}

  /** The teacher's socket: the roster says where each student is. */
  readonly onTeacher = (_live: Live, message: TServerMessage, at: number) => {
    const move = this.pending;
    if (!move || message.type !== 'presence' || message.student.sectionId !== move.sectionId) return;
    move.placed.add(message.student.userId);
    move.placedAt = at;
    this.check(move);
  };

  /** A student's socket: in follow mode the learn view moves with the class and says where it is now. */
  readonly onStudent = (live: Live, message: TServerMessage, at: number) => {
    if (message.type !== 'session') return;
    const { sectionId, mode } = message.session;
    const move = this.pending;
    if (move && sectionId === move.sectionId && live.seen !== move.n) {
      live.seen = move.n;
      move.received++;
      move.lastAt = at;
      this.check(move);
    }
    if (mode === 'follow') live.send({ type: 'at', scheduleId: this.scheduleId, sectionId });
  };

  private check(move: Move) {
    if (move.received === this.size && move.placed.size === this.size) move.done();
  }

  /**
   * The teacher shows a section; answers when every student has it and the teacher's roster shows every student
   * there: the time to the last student's receipt, and to the roster's last update.
   */
  async move(sectionId: string): Promise<{ lastStudentMs: number; rosterMs: number }> {
    const n = this.moves++;
    const finished = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`move ${n}: ${this.pending?.received} of ${this.size} students within ${MOVE_TIMEOUT_MS} ms`),
          ),
        MOVE_TIMEOUT_MS,
      );
      this.pending = {
        n,
        sectionId,
        sentAt: performance.now(),
        received: 0,
        lastAt: 0,
        placed: new Set(),
        placedAt: 0,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
    this.teacher.send({ type: 'show', scheduleId: this.scheduleId, sessionId: this.sessionId, sectionId });
    await finished;
    const move = this.pending!;
    this.pending = null;
    return { lastStudentMs: move.lastAt - move.sentAt, rosterMs: move.placedAt - move.sentAt };
  }

  get refusals() {
    return [this.teacher, ...this.students].reduce((sum, live) => sum + live.refusals, 0);
  }

  close() {
    for (const live of [this.teacher, ...this.students]) live.ws.terminate();
  }
}

/**
 * Opens a socket and joins the classroom; answers once the server said `joined`. A student's learn view then says
 * which section it shows, as the browser's does.
 */
async function join(base: string, room: Room, token: string, student: boolean): Promise<Live> {
  let joined!: () => void;
  const answered = new Promise<void>((resolve) => (joined = resolve));
  const handler = student ? room.onStudent : room.onTeacher;
  const live = await Live.open(base, token, (l, message, at) => {
    if (message.type === 'joined') {
      if (student) l.send({ type: 'at', scheduleId: room.scheduleId, sectionId: message.session?.sectionId ?? null });
      joined();
    }
    handler(l, message, at);
  });
  live.send({ type: 'join', scheduleId: room.scheduleId });
  await answered;
  return live;
}

/** A teacher's schedule of one class, started, with a lesson opened and started. */
async function openClassroom(base: string, teacherToken: string, classId: string, courseId: string, size: number) {
  const schedule = await call<{ id: string }>(base, teacherToken, 'POST', '/api/v1/schedules', {
    name: 'Live lesson',
    startAt: new Date().toISOString(),
    courses: [{ courseId }],
    classIds: [classId],
  });
  await call(base, teacherToken, 'POST', `/api/v1/schedules/${schedule.id}/start`);
  const session = await call<{ id: string }>(base, teacherToken, 'POST', classroomApi(schedule.id).open);
  await call(base, teacherToken, 'POST', classroomSessionApi(session.id).start);
  return new Room(schedule.id, session.id, size);
}

/** The preload that makes a server process report its memory after a full collection (memory-report.mjs). */
const MEMORY_REPORT = new URL('./memory-report.mjs', import.meta.url).href;

/** The server's memory after a full garbage collection: resident, and its JavaScript heap with what it holds outside. */
async function memoryOf(server: ChildProcess, file: string): Promise<{ rss: number; heap: number }> {
  rmSync(file, { force: true });
  server.kill('SIGUSR2');
  for (;;) {
    if (existsSync(file)) {
      const usage = JSON.parse(readFileSync(file, 'utf8')) as NodeJS.MemoryUsage;
      return { rss: usage.rss, heap: usage.heapUsed + usage.external };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The classes of `seeded` with their people signed in and their classrooms opened, not yet connected. */
function prepareClasses(base: string, seeded: SeededClass[], courseId: string) {
  return inBatches(seeded, 4, async (c) => {
    const teacherToken = await signIn(base, c.teacher);
    const room = await openClassroom(base, teacherToken, c.classId, courseId, c.students.length);
    const studentTokens = await inBatches(c.students, 4, (username) => signIn(base, username));
    return { room, teacherToken, studentTokens };
  });
}

/** Every prepared classroom's teacher, then its students, connected and joined. */
async function connectClasses(base: string, prepared: Awaited<ReturnType<typeof prepareClasses>>): Promise<Room[]> {
  for (const { room, teacherToken } of prepared) room.teacher = await join(base, room, teacherToken, false);
  const students = prepared.flatMap(({ room, studentTokens }) => studentTokens.map((token) => ({ room, token })));
  const lives = await inBatches(students, SETUP_CONCURRENCY, ({ room, token }) => join(base, room, token, true));
  for (const [i, { room }] of students.entries()) room.students.push(lives[i]!);
  return prepared.map((p) => p.room);
}

const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

function summary(label: string, samples: { lastStudentMs: number; rosterMs: number }[], target: number) {
  const last = samples.map((s) => s.lastStudentMs).sort((a, b) => a - b);
  const roster = samples.map((s) => s.rosterMs).sort((a, b) => a - b);
  const p95 = percentile(last, 95);
  return [
    `${label}: teacher's move → last student's update, ${last.length} samples: p50 ${ms(last, 50)} ms, ` +
      `p95 ${p95.toFixed(1)} ms (target ≤ ${target} ms${p95 <= target ? '' : ' — MISSED'}), max ${last.at(-1)!.toFixed(1)} ms`,
    `  → the teacher's roster shows every student on the new section: p50 ${ms(roster, 50)} ms, p95 ${ms(roster, 95)} ms`,
  ];
}

/** The built server on the seeded database, reporting its memory on request (memory-report.mjs); stopped after `run`. */
async function withServer<T>(
  env: Record<string, string>,
  run: (base: string, server: ChildProcess, memoryFile: string) => Promise<T>,
) {
  const memoryFile = path.join(env.DATA_DIR!, 'memory.json');
  const { url, child } = await startServerProcess({ ...env, BENCH_MEMORY_REPORT: memoryFile }, [
    '--expose-gc',
    '--import',
    MEMORY_REPORT,
    SERVER_MAIN,
  ]);
  try {
    return await run(url, child, memoryFile);
  } finally {
    await stopServerProcess(child);
  }
}

function memoryLine(perSocket: { rss: number; heap: number }, sockets: number) {
  return (
    `memory a connected socket (growth after a full collection ÷ ${sockets} sockets): JavaScript heap and ` +
    `external ${kib(perSocket.heap)} KiB; RSS ${kib(perSocket.rss)} KiB (V8 reuses the pages the sign-ins took, so ` +
    'RSS moves by more than the sockets hold)'
  );
}

/**
 * The live classroom over real WebSockets against the built server in a process of its own (the sockets live in
 * this process): one teacher and 60 students, the teacher moving the class 50 times; then 20 classrooms of 40
 * whose teachers move at the same moment, 10 times. Each student's learn view follows and says where it is (`at`),
 * as a browser does. Every person signs in over the API; schedules and lessons are made through it too.
 */
export async function benchClassroom(serverUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-bench-classroom-'));
  const scratch = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  const kind = scratch ? 'PostgreSQL' : 'PGlite';
  const env = { DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  try {
    const database = await openDatabase({ databaseUrl: scratch?.url, dataDir: path.join(dataDir, 'db') });
    let world: Awaited<ReturnType<typeof seed>>;
    try {
      await database.migrate(MIGRATIONS_FOLDER);
      world = await seed(database, [ONE_CLASS, ...Array.from({ length: MANY_CLASSES }, () => MANY_SIZE)]);
    } finally {
      await database.close();
    }
    const [big, ...many] = world.classes;
    const lines: string[] = [];
    let course!: { courseId: string; sectionIds: string[] };
    const nextSection = (i: number) => course.sectionIds[(i + 1) % SECTIONS]!;

    // A server of its own for each part: the second's memory is compared from a server that served no socket.
    await withServer(env, async (base, server) => {
      course = await publishCourse(base, await signIn(base, big!.teacher), world);
      const [room] = await connectClasses(base, await prepareClasses(base, [big!], course.courseId));
      if (!room) throw new Error('no classroom');
      try {
        for (let i = 0; i < WARM_UP; i++) await room.move(nextSection(i));
        const cpuBefore = cpuSeconds(server.pid!);
        const samples = [];
        for (let i = 0; i < MOVES; i++) samples.push(await room.move(nextSection(i + WARM_UP)));
        const cpuPerMove = (1000 * (cpuSeconds(server.pid!) - cpuBefore)) / MOVES;
        lines.push(
          ...summary(`${kind}, one class of ${ONE_CLASS} (${MOVES} moves)`, samples, 300),
          `  server CPU ${cpuPerMove.toFixed(1)} ms a move (its ${ONE_CLASS} answers \`at\` included); refusals ${room.refusals}`,
        );
      } finally {
        room.close();
      }
    });

    await withServer(env, async (base, server, memoryFile) => {
      const prepared = await prepareClasses(base, many, course.courseId);
      // Memory is compared on these sockets only: on one class's 61, whatever else the server frees or takes
      // meanwhile weighs as much as the sockets (a run gave −9 KiB a socket).
      await settled(server);
      const before = await memoryOf(server, memoryFile);
      const rooms = await connectClasses(base, prepared);
      await settled(server);
      const after = await memoryOf(server, memoryFile);
      try {
        const round = (r: number) => Promise.all(rooms.map((room) => room.move(nextSection(r))));
        await round(0);
        const cpuBefore = cpuSeconds(server.pid!);
        const samples = [];
        for (let r = 1; r <= ROUNDS; r++) samples.push(...(await round(r)));
        const cpuPerRound = (1000 * (cpuSeconds(server.pid!) - cpuBefore)) / ROUNDS;
        const sockets = MANY_CLASSES * (MANY_SIZE + 1);
        const perSocket = { rss: (after.rss - before.rss) / sockets, heap: (after.heap - before.heap) / sockets };
        lines.push(
          ...summary(
            `${kind}, ${MANY_CLASSES} classes of ${MANY_SIZE} at once (${ROUNDS} rounds of ${MANY_CLASSES} moves)`,
            samples,
            1000,
          ),
          `  server CPU ${cpuPerRound.toFixed(0)} ms a round of ${MANY_CLASSES} moves; ` +
            `refusals ${rooms.reduce((s, r) => s + r.refusals, 0)}`,
          `  ${memoryLine(perSocket, sockets)}`,
        );
      } finally {
        for (const room of rooms) room.close();
      }
    });
    return lines;
  } finally {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
