import type { ContainerType, RuntimeEnvironment, TRuntimeIsolation } from '@aiedu/contracts';
import type { DatasetCache, DatasetMount } from './dataset-mounts.js';

/** What a driver needs to know of a project to run it. */
export interface RuntimeProject {
  id: string;
  /** The project's small number; the local driver derives its system user from it. */
  seq: number;
  /** Its name, which a terminal's prompt shows (starts pass it; other calls need not). */
  name?: string;
  /** Its runtime environment: the packages a start needs (`python` when not said). */
  environment?: RuntimeEnvironment;
  /**
   * Its attached datasets whose copies are ready, as a start passes them: a runtime pod's mounts are fixed when it
   * is made (the local driver links them into the workspace at any time instead).
   */
  datasets?: DatasetMount[];
}

export interface RuntimeEndpoint {
  /** Where the gateway reaches the project's Jupyter server, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** Jupyter's token; never sent to the browser. */
  token: string;
}

export interface RuntimeUsage {
  memoryBytes: number;
  cpuSeconds: number;
}

/**
 * Runs one Jupyter server per project. The local driver runs processes on this machine; the Kubernetes driver
 * implements the same calls with one pod per project. `onExit` is called when a runtime ends by itself
 * (a crash), never for a `stop`.
 */
export interface RuntimeDriver {
  readonly limitsMode: 'cgroup' | 'rlimit' | 'none';
  /** How runtimes are kept from the platform's services and each other (the super administrators' console). */
  readonly isolation: TRuntimeIsolation;
  /** Applies the network rules again (after nftables was installed). */
  isolate?(): Promise<void>;
  /** Called once as the manager opens (the Kubernetes driver's watch of its pods and its sweep). */
  open?(): Promise<void>;
  start(project: RuntimeProject, runtimeType: ContainerType): Promise<RuntimeEndpoint>;
  stop(projectId: string): Promise<void>;
  status(projectId: string): 'RUNNING' | 'STOPPED';
  usage(projectId: string): Promise<RuntimeUsage | null>;
  /**
   * A folder on the disk the runtimes write to, and a count of the bytes a runtime has put on it that grows as it
   * writes (null when it does not run here): the disk guard's measures. The local driver counts what the runtime's
   * processes wrote; the Kubernetes driver, whose pods' processes it cannot see, what the project's folder of the
   * shared claim takes.
   */
  readonly diskDir?: string;
  writtenBytes?(projectId: string): Promise<number | null>;
  /** How often, near the floor, `writtenBytes` is read (a folder walk costs more than a look at /proc). */
  readonly diskWatchMs?: number;
  /** The project's files, as the runtime sees them (the Jupyter root directory). */
  workspaceDir(project: RuntimeProject): string;
  /** Creates the workspace when missing and answers its path. */
  ensureWorkspace(project: RuntimeProject): string;
  /** Hands files the server wrote into the workspace (uploads, restored versions) to the runtime's user. */
  claim(project: RuntimeProject, absolutePath: string): void;
  /** The read-only copies of dataset versions runtimes read, on the runtimes' disk (absent: no datasets). */
  readonly datasets?: DatasetCache;
  /**
   * Makes the project's datasets appear at `datasets/<mountName>` of its workspace, read-only, and those not listed
   * disappear; answers the names an entry of the project's own stands in the way of. The Kubernetes driver mounts
   * them when it makes the runtime's pod (from `RuntimeProject.datasets`), so there this changes nothing.
   */
  mountDatasets?(project: RuntimeProject, mounts: readonly DatasetMount[]): Promise<{ blocked: string[] }>;
  /** Stops the runtime and deletes the project's folders. */
  remove(project: RuntimeProject): Promise<void>;
  /**
   * Runs the project's Python with `args` as the runtime's user, in its virtual environment and sandbox (package
   * installs, experiment checks); `input` is written to its standard input.
   */
  exec(project: RuntimeProject, args: string[], options?: ExecOptions): Promise<ExecResult>;
  onExit(listener: (projectId: string) => void): void;
  /** Starts ahead what later starts will take (the local driver's warm pool of Jupyter servers). */
  warm(): void;
  stopAll(): Promise<void>;
}

export interface ExecOptions {
  timeoutMs?: number;
  input?: string;
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}
