import { diskFull, floorState, freeDiskBytes, type FloorState } from '../../platform/disk-space.js';

/** What a runtime may still add once the disk is below the floor before it is stopped (saves, a small output). */
export const DISK_GRACE_BYTES = 16 * 1024 * 1024;
/** How often free space is measured, and how often once it nears the floor (runtimes' writes are read then too). */
const CHECK_MS = 1000;
const WATCH_MS = 250;

export interface DiskGuardOptions {
  /** A folder on the disk runtimes write to (`DATA_DIR/runtime`). */
  dir: string;
  /** The floor in MiB (`MIN_FREE_DISK_MB`), read at every check; 0 turns the guard off. */
  floorMb(): number;
  /** The projects whose runtimes run now. */
  running(): string[];
  /** A count of the bytes a runtime has put on the disk, which grows as it writes (null when it is not running here). */
  written(projectId: string): Promise<number | null>;
  /** Stops a runtime that kept writing. */
  stop(projectId: string): Promise<void>;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
  /** How often to check once the disk is within twice the floor; a quarter second by default. */
  watchMs?: number;
  /** Free bytes for unprivileged users at `dir`; statfs by default. */
  freeBytes?(dir: string): Promise<number>;
}

/**
 * Keeps notebook runtimes from filling the disk they share with the database and stored files. While free space
 * is below the floor, runtimes are not started and packages not installed (`NO_SPACE`), and a runtime that adds
 * more than `DISK_GRACE_BYTES` after the disk fell below it is stopped: its saved files stay, so the student can
 * delete what it wrote. Free space is measured every second; once it is within twice the floor, every quarter
 * second, with each runtime's written bytes, so the writes made as the floor is crossed count as well.
 */
export class DiskGuard {
  private readonly freeBytes: (dir: string) => Promise<number>;
  /** The latest reading of each runtime's written bytes, while the disk is near the floor. */
  private readings = new Map<string, number>();
  /** Each runtime's written bytes as the disk fell below the floor; null while it is above. */
  private baselines: Map<string, number> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private active = false;
  /** Within twice the floor at the latest check. */
  private near = false;

  constructor(private readonly options: DiskGuardOptions) {
    this.freeBytes = options.freeBytes ?? freeDiskBytes;
  }

  /** Free bytes and the floor now, and where the one stands against the other. */
  async measure(): Promise<{ freeBytes: number; floorBytes: number; state: FloorState }> {
    const floorMb = this.options.floorMb();
    const freeBytes = await this.freeBytes(this.options.dir);
    return { freeBytes, floorBytes: floorMb * 2 ** 20, state: floorState(freeBytes, floorMb) };
  }

  /** Refuses work that fills the disk (a start, an install) while it is below the floor. */
  async assertRoom(): Promise<void> {
    const { freeBytes, state } = await this.measure();
    if (state === 'low') throw diskFull(freeBytes);
  }

  /** One check; answers the projects whose runtimes it stopped. */
  async check(): Promise<string[]> {
    const { freeBytes, floorBytes, state } = await this.measure();
    this.near = state === 'near' || state === 'low';
    if (!this.near) {
      this.readings.clear();
      this.baselines = null;
      return [];
    }
    const running = this.options.running();
    const now = new Map<string, number>();
    for (const projectId of running) {
      const written = await this.options.written(projectId);
      if (written !== null) now.set(projectId, written);
    }
    if (state !== 'low') {
      if (this.baselines) this.options.log.info({ freeBytes, floorBytes }, 'disk back above the runtimes floor');
      this.baselines = null;
      this.readings = now;
      return [];
    }
    if (!this.baselines) {
      this.options.log.warn({ freeBytes, floorBytes }, 'disk below the runtimes floor: starts refused');
      this.baselines = new Map(this.readings);
    }
    const stopped: string[] = [];
    for (const [projectId, written] of now) {
      const baseline = this.baselines.get(projectId);
      // A process that ended without its parent reaping it takes its count along: the sum can fall.
      if (baseline === undefined || written < baseline) {
        this.baselines.set(projectId, written);
      } else if (written - baseline > DISK_GRACE_BYTES) {
        this.options.log.warn(
          { projectId, addedBytes: written - baseline, freeBytes, floorBytes },
          'runtime stopped: it kept writing to a full disk',
        );
        this.baselines.delete(projectId);
        stopped.push(projectId);
        await this.options.stop(projectId);
      }
    }
    for (const projectId of this.baselines.keys()) if (!now.has(projectId)) this.baselines.delete(projectId);
    this.readings = now;
    return stopped;
  }

  /** Checks on a timer until `close`: every second, or every quarter second near the floor. */
  open(): void {
    if (this.active) return;
    this.active = true;
    const next = () => {
      if (!this.active) return;
      this.timer = setTimeout(
        () => void this.tick().finally(next),
        this.near ? (this.options.watchMs ?? WATCH_MS) : CHECK_MS,
      );
      this.timer.unref();
    };
    next();
  }

  private async tick() {
    try {
      await this.check();
    } catch (error) {
      this.options.log.warn({ error: (error as Error).message }, 'disk check failed');
    }
  }

  close(): void {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
