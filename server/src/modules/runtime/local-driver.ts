import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContainerType, TRuntimeIsolation } from '@aiedu/contracts';
import type { RuntimeLimits } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import { cgroupUsage, detectLimitsMode, removeCgroup, type LimitsMode } from './cgroup-limits.js';
import {
  bindServer,
  killServer,
  launchServer,
  nproc,
  PRLIMIT,
  projectEnvironment,
  serverAlive,
  writeJupyterFiles,
  type JupyterServer,
} from './jupyter-server.js';
import { cgroupWrittenBytes, processTreeUsage, processTreeWrittenBytes } from './process-usage.js';
import { canHideProcesses, hidingCommandAs } from './process-view.js';
import { FolderWorkspaces, ProjectFolders } from './project-folders.js';
import type {
  ExecOptions,
  ExecResult,
  RuntimeDriver,
  RuntimeEndpoint,
  RuntimeProject,
  RuntimeUsage,
} from './runtime-driver.js';
import {
  indexAllowance,
  isolateRuntimeNetwork,
  rulesInForce,
  type NetworkAllowance,
  type NetworkIsolation,
  type RuntimeNetworkMode,
} from './runtime-network.js';
import { WarmPool } from './warm-pool.js';

export interface LocalDriverOptions {
  /** `DATA_DIR/runtime`: one folder per project (workspace, virtual environment, home), `pool/`, `jupyter/`. */
  rootDir: string;
  python: string;
  uidBase: number;
  limits: Record<ContainerType, RuntimeLimits>;
  /** Jupyter servers kept started per runtime type (the warm pool); 0 starts each one on demand. */
  warmPool: Record<ContainerType, number>;
  pipIndexUrl: string | undefined;
  /** What runtimes may reach over the network (`RUNTIME_NETWORK`, `RUNTIME_NETWORK_ALLOW`). */
  network: { mode: RuntimeNetworkMode; allow: NetworkAllowance[] };
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
  /** The processes and threads one runtime (or package command) may have at once (`RUNTIME_MAX_PROCESSES`). */
  maxProcesses: number;
  /** Where cgroup v2 is mounted; tests point it at a folder of their own. */
  cgroupRoot?: string;
}

interface Running {
  server: JupyterServer;
  stopping: boolean;
}

/**
 * One Jupyter server process per running project, on its own random loopback port and token, with the project's
 * workspace as its root directory. Run as root, each project gets its own system user (`uidBase + seq`) that owns
 * only that project's folder; the data directory, database and secrets stay unreadable to it, and the process
 * environment carries none of the server's variables.
 *
 * Servers are started ahead of need (the warm pool, per runtime type, with that type's limits) and **bound** to a
 * project at its start: the bind points the server's root directory at the project's workspace, in place, gives
 * it the project's environment and drops it to the project's user. A pool server is never used twice: it ends
 * with its project's runtime, and the pool starts a fresh one.
 */
export class LocalRuntimeDriver extends FolderWorkspaces implements RuntimeDriver {
  readonly limitsMode: LimitsMode;
  isolation: TRuntimeIsolation;
  /**
   * Each running project's kernel connection folder (`<this>/<seq>`, its user's alone): a short path, since a Unix
   * socket's path may not exceed 107 bytes and the data directory's can be anything.
   */
  private readonly connectionsDir: string;
  private readonly hideProcesses: boolean;
  private readonly running = new Map<string, Running>();
  private readonly exitListeners: ((projectId: string) => void)[] = [];
  private readonly isRoot = process.getuid?.() === 0;
  /** Only a project user of its own can be bounded by prlimit's process count. */
  private get maxProcesses() {
    return this.isRoot ? this.options.maxProcesses : null;
  }
  private readonly configFile: string;
  private readonly launcherFile: string;
  private readonly jupyterPath: string;
  private readonly poolDir: string;
  private readonly cgroupRoot: string;
  private readonly pool: WarmPool<JupyterServer>;
  protected readonly folders: ProjectFolders;

  constructor(private readonly options: LocalDriverOptions) {
    super();
    this.folders = new ProjectFolders(options.rootDir, options.uidBase);
    this.cgroupRoot = options.cgroupRoot ?? '/sys/fs/cgroup';
    this.limitsMode = detectLimitsMode({ root: this.cgroupRoot, isRoot: this.isRoot, prlimit: PRLIMIT });
    this.hideProcesses = canHideProcesses();
    this.isolation = {
      driver: 'local',
      network: 'open',
      networkMode: options.network.mode,
      reason: 'not applied yet',
      processesHidden: this.hideProcesses,
      limits: this.limitsMode,
    };
    const runDir = this.isRoot && existsSync('/run') ? '/run' : os.tmpdir();
    this.connectionsDir = mkdtempSync(path.join(runDir, 'aiedu-'));
    // Project users pass through to their own folder, and list nothing.
    chmodSync(this.connectionsDir, 0o711);
    mkdirSync(options.rootDir, { recursive: true });
    // Other users may pass through the runtime folder to their own project but not list it.
    chmodSync(options.rootDir, 0o711);
    ({
      configFile: this.configFile,
      launcherFile: this.launcherFile,
      jupyterPath: this.jupyterPath,
    } = writeJupyterFiles(options.rootDir));
    // Servers' own folders: left over from a previous process, they hold nothing of any project.
    this.poolDir = path.join(options.rootDir, 'pool');
    rmSync(this.poolDir, { recursive: true, force: true });
    // A bound server, now its project's user, passes through to its own folder (its Jupyter runtime files).
    mkdirSync(this.poolDir, { mode: 0o711 });
    chmodSync(this.poolDir, 0o711);
    this.pool = new WarmPool({
      sizes: options.warmPool,
      launch: (type) => this.launch(type, true),
      alive: serverAlive,
      kill: (server) => this.discard(server),
      log: options.log,
    });
  }

  async open(): Promise<void> {
    await this.isolate();
  }

  /**
   * Installs the network rules that keep every project user of this process from the machine's services and
   * private networks, checks that they hold, and says in the log what is not kept from them.
   */
  async isolate(): Promise<void> {
    const index = indexAllowance(this.options.pipIndexUrl);
    let network = isolateRuntimeNetwork({
      uidBase: this.options.uidBase,
      mode: this.options.network.mode,
      allow: [...this.options.network.allow, ...(index ? [index] : [])],
    });
    if (network.isolated && !(await rulesInForce(this.options.uidBase))) {
      network = {
        ...network,
        isolated: false,
        reason:
          "the runtimes' nftables rules were loaded but a test connection from a runtime user to this machine was not refused",
      };
    }
    warnUnlessIsolated(network, this.hideProcesses, this.options.log);
    this.isolation = {
      ...this.isolation,
      network: network.isolated ? 'isolated' : 'open',
      networkMode: network.mode,
      reason: network.reason,
    };
  }

  /**
   * Before each start: rules can go without this process knowing (a firewall reloaded, `nft flush ruleset`); they
   * are put back, or the console and the log say that they could not be.
   */
  private async keepIsolated() {
    if (!this.isRoot) return;
    if (this.isolation.network === 'isolated' && (await rulesInForce(this.options.uidBase))) return;
    await this.isolate();
  }

  private launch(runtimeType: ContainerType, background: boolean) {
    return launchServer(runtimeType, {
      python: this.options.python,
      configFile: this.configFile,
      launcherFile: this.launcherFile,
      jupyterPath: this.jupyterPath,
      poolDir: this.poolDir,
      limitsMode: this.limitsMode,
      cgroupRoot: this.cgroupRoot,
      limits: this.options.limits[runtimeType],
      maxProcesses: this.maxProcesses,
      background,
      hideProcesses: this.hideProcesses,
      log: this.options.log,
    });
  }

  /** Stops a server and removes its folder and cgroup. */
  private async discard(server: JupyterServer) {
    await killServer(server);
    removeCgroup(server.cgroup);
    rmSync(server.dir, { recursive: true, force: true });
  }

  /** Fills the warm pool in the background (once the server is ready; every start refills it after). */
  warm(): void {
    void this.pool.fill();
  }

  /** Ready pool servers per runtime type. */
  warmCounts(): Record<ContainerType, number> {
    return this.pool.counts();
  }

  private projectDir(projectId: string) {
    return this.folders.projectDir(projectId);
  }

  async remove(project: RuntimeProject): Promise<void> {
    await this.stop(project.id);
    rmSync(this.projectDir(project.id), { recursive: true, force: true });
  }

  private identity(project: RuntimeProject) {
    return this.folders.identity(project);
  }

  /** The project's folders; the virtual environment is created on first use. */
  private async prepare(project: RuntimeProject): Promise<{ home: string; venv: string; workspace: string }> {
    const dir = this.projectDir(project.id);
    const home = path.join(dir, 'home');
    const venv = path.join(dir, 'venv');
    const workspace = this.ensureWorkspace(project);
    if (!existsSync(path.join(venv, 'bin', 'python'))) {
      const result = await this.run(project, [this.options.python, '-m', 'venv', '--system-site-packages', venv], {
        timeoutMs: 120_000,
      });
      if (result.code !== 0) {
        // Made again, empty, at the next start.
        rmSync(venv, { recursive: true, force: true });
        throw new AppError('VM_CREATE_FAILED', { reason: result.stderr.slice(-2000) });
      }
    }
    return { home, venv, workspace };
  }

  private connectionDir(project: RuntimeProject) {
    return path.join(this.connectionsDir, String(project.seq));
  }

  /** The project's kernel connection folder, made empty for a start and given to the project's user. */
  private makeConnectionDir(project: RuntimeProject) {
    const dir = this.connectionDir(project);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { mode: 0o700 });
    const id = this.identity(project);
    if (id) chownSync(dir, id.uid, id.gid);
  }

  private env(project: RuntimeProject, runtimeType: ContainerType | null): NodeJS.ProcessEnv {
    const home = path.join(this.projectDir(project.id), 'home');
    return projectEnvironment({
      home,
      venv: path.join(this.projectDir(project.id), 'venv'),
      jupyterPath: this.jupyterPath,
      runtimeDir: this.connectionDir(project),
      projectName: project.name,
      limits: runtimeType ? this.options.limits[runtimeType] : { cpu: 1, memoryMb: 0 },
      pipIndexUrl: this.options.pipIndexUrl,
    });
  }

  /** Runs a command as the project's user with the project's clean environment. */
  private run(project: RuntimeProject, args: string[], options: ExecOptions = {}): Promise<ExecResult> {
    // A package's install scripts run as the project too: bounded like its runtime.
    const identity = this.identity(project);
    // Hidden, the command drops to the project's user itself, once its namespace is made.
    const hidden = this.hideProcesses && identity;
    const isolated = hidden ? hidingCommandAs(identity, args) : args;
    const command =
      this.maxProcesses && existsSync(PRLIMIT) ? [PRLIMIT, ...nproc(this.maxProcesses), '--', ...isolated] : isolated;
    return new Promise((resolve) => {
      const child = spawn(command[0]!, command.slice(1), {
        cwd: this.workspaceDir(project),
        env: this.env(project, null),
        ...(hidden ? {} : (identity ?? {})),
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      if (child.stdin) {
        // A command that exits without reading all of it closes the pipe: not an error of the server's.
        child.stdin.on('error', () => undefined);
        child.stdin.end(options.input);
      }
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => void (stdout = (stdout + d.toString()).slice(-200_000)));
      child.stderr!.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-200_000)));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
      child.on('error', (error) => {
        clearTimeout(timer);
        resolve({ code: -1, stdout, stderr: stderr + error.message });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code: code ?? -1, stdout, stderr });
      });
    });
  }

  async exec(project: RuntimeProject, args: string[], options: ExecOptions = {}): Promise<ExecResult> {
    const { venv } = await this.prepare(project);
    return this.run(project, [path.join(venv, 'bin', 'python'), ...args], options);
  }

  async start(project: RuntimeProject, runtimeType: ContainerType): Promise<RuntimeEndpoint> {
    const existing = this.running.get(project.id);
    if (existing) return existing.server.endpoint;
    await this.keepIsolated();
    const { workspace } = await this.prepare(project);
    this.makeConnectionDir(project);
    const warm = this.pool.take(runtimeType);
    const server = warm ?? (await this.launch(runtimeType, false));
    try {
      server.endpoint = await bindServer(server, {
        rootDir: workspace,
        env: this.env(project, runtimeType),
        identity: this.identity(project),
      });
    } catch (error) {
      this.options.log.warn({ projectId: project.id, log: server.log().slice(-4000) }, 'runtime failed to start');
      await this.discard(server);
      throw error instanceof AppError ? error : new AppError('CONTAINER_START_FAILED');
    }
    const entry: Running = { server, stopping: false };
    this.running.set(project.id, entry);
    void server.exited.then(() => {
      rmSync(this.connectionDir(project), { recursive: true, force: true });
      if (this.running.get(project.id) === entry) this.running.delete(project.id);
      if (entry.stopping) return;
      void this.discard(server);
      this.options.log.warn({ projectId: project.id, log: server.log().slice(-2000) }, 'runtime exited');
      for (const listener of this.exitListeners) listener(project.id);
    });
    this.options.log.info(
      { projectId: project.id, port: new URL(server.endpoint.baseUrl).port, limits: this.limitsMode, warm: !!warm },
      'runtime started',
    );
    return server.endpoint;
  }

  async stop(projectId: string): Promise<void> {
    const entry = this.running.get(projectId);
    if (!entry) return;
    entry.stopping = true;
    await this.discard(entry.server);
    this.running.delete(projectId);
  }

  status(projectId: string): 'RUNNING' | 'STOPPED' {
    return this.running.has(projectId) ? 'RUNNING' : 'STOPPED';
  }

  async usage(projectId: string): Promise<RuntimeUsage | null> {
    const entry = this.running.get(projectId);
    if (!entry?.server.child.pid) return null;
    if (entry.server.cgroup) return cgroupUsage(entry.server.cgroup);
    return processTreeUsage(entry.server.child.pid);
  }

  get diskDir(): string {
    return this.options.rootDir;
  }

  /** Counted over the runtime's cgroup where it has one (daemons included), else over its server's descendants. */
  async writtenBytes(projectId: string): Promise<number | null> {
    const entry = this.running.get(projectId);
    if (!entry?.server.child.pid) return null;
    if (entry.server.cgroup) return cgroupWrittenBytes(entry.server.cgroup);
    return processTreeWrittenBytes(entry.server.child.pid);
  }

  onExit(listener: (projectId: string) => void): void {
    this.exitListeners.push(listener);
  }

  async stopAll(): Promise<void> {
    await Promise.all([this.pool.close(), ...[...this.running.keys()].map((id) => this.stop(id))]);
    rmSync(this.connectionsDir, { recursive: true, force: true });
  }
}

/** Says at start, in plain words, what a runtime can reach or see that it should not, and what to do. */
function warnUnlessIsolated(network: NetworkIsolation, processesHidden: boolean, log: LocalDriverOptions['log']) {
  if (!network.isolated) {
    log.warn(
      { reason: network.reason },
      `notebook runtimes are NOT cut off from this machine's services: ${network.reason}. Run the server as root with nftables installed (README, "Security")`,
    );
  }
  if (!processesHidden) {
    log.warn({}, 'notebook runtimes can list every process of this machine (run the server as root to hide them)');
  }
}
