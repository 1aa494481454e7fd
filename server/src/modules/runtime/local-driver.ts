import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ContainerType } from '@aiedu/contracts';
import type { RuntimeLimits } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import { JUPYTER_CONFIG } from './jupyter-config.js';
import type { ExecResult, RuntimeDriver, RuntimeEndpoint, RuntimeProject, RuntimeUsage } from './runtime-driver.js';

export interface LocalDriverOptions {
  /** `DATA_DIR/runtime`: one folder per project (workspace, virtual environment, home). */
  rootDir: string;
  python: string;
  uidBase: number;
  limits: Record<ContainerType, RuntimeLimits>;
  pipIndexUrl: string | undefined;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

interface Running {
  child: ChildProcess;
  endpoint: RuntimeEndpoint;
  cgroup: string | null;
  stopping: boolean;
}

const CGROUP_ROOT = '/sys/fs/cgroup';
const READY_TIMEOUT_MS = 30_000;

/** How this host can limit memory and CPU: cgroups v2 when we may create groups, else process limits. */
function detectLimitsMode(isRoot: boolean): 'cgroup' | 'rlimit' | 'none' {
  if (!isRoot) return existsSync('/usr/bin/prlimit') ? 'rlimit' : 'none';
  try {
    if (!existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'))) throw new Error('no cgroup v2');
    const probe = path.join(CGROUP_ROOT, 'aiedu-runtimes');
    mkdirSync(probe, { recursive: true });
    writeFileSync(path.join(CGROUP_ROOT, 'cgroup.subtree_control'), '+memory +cpu');
    return 'cgroup';
  } catch {
    return existsSync('/usr/bin/prlimit') ? 'rlimit' : 'none';
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * One Jupyter server process per running project, on its own random loopback port and token, with the project's
 * workspace as its root directory. Run as root, each project gets its own system user (`uidBase + seq`) that owns
 * only that project's folder; the data directory, database and secrets stay unreadable to it, and the process
 * environment carries none of the server's variables.
 */
export class LocalRuntimeDriver implements RuntimeDriver {
  readonly limitsMode: 'cgroup' | 'rlimit' | 'none';
  private readonly running = new Map<string, Running>();
  private readonly exitListeners: ((projectId: string) => void)[] = [];
  private readonly isRoot = process.getuid?.() === 0;
  private readonly configFile: string;

  constructor(private readonly options: LocalDriverOptions) {
    this.limitsMode = detectLimitsMode(this.isRoot);
    mkdirSync(options.rootDir, { recursive: true });
    // Other users may pass through the runtime folder to their own project but not list it.
    chmodSync(options.rootDir, 0o711);
    this.configFile = path.join(options.rootDir, 'jupyter_server_config.py');
    writeFileSync(this.configFile, JUPYTER_CONFIG, { mode: 0o644 });
  }

  private projectDir(projectId: string) {
    return path.join(this.options.rootDir, projectId);
  }

  workspaceDir(project: RuntimeProject): string {
    return path.join(this.projectDir(project.id), 'workspace');
  }

  ensureWorkspace(project: RuntimeProject): string {
    const dir = this.projectDir(project.id);
    const workspace = this.workspaceDir(project);
    const id = this.identity(project);
    for (const folder of [dir, workspace]) {
      mkdirSync(folder, { recursive: true });
      if (id) chownSync(folder, id.uid, id.gid);
    }
    chmodSync(dir, 0o700);
    return workspace;
  }

  claim(project: RuntimeProject, absolutePath: string): void {
    const id = this.identity(project);
    if (!id) return;
    const walk = (p: string) => {
      const stat = lstatSync(p);
      chownSync(p, id.uid, id.gid);
      if (stat.isDirectory()) for (const entry of readdirSync(p)) walk(path.join(p, entry));
    };
    walk(absolutePath);
  }

  async remove(project: RuntimeProject): Promise<void> {
    await this.stop(project.id);
    rmSync(this.projectDir(project.id), { recursive: true, force: true });
  }

  private identity(project: RuntimeProject): { uid: number; gid: number } | null {
    if (!this.isRoot) return null;
    const uid = this.options.uidBase + project.seq;
    return { uid, gid: uid };
  }

  /** The project's folders, owned by its user; the virtual environment is created on first use. */
  private async prepare(project: RuntimeProject): Promise<{ home: string; venv: string; workspace: string }> {
    const dir = this.projectDir(project.id);
    const home = path.join(dir, 'home');
    const venv = path.join(dir, 'venv');
    const workspace = this.ensureWorkspace(project);
    const id = this.identity(project);
    for (const folder of [home]) {
      mkdirSync(folder, { recursive: true });
      if (id) chownSync(folder, id.uid, id.gid);
    }
    if (!existsSync(path.join(venv, 'bin', 'python'))) {
      const result = await this.run(project, [this.options.python, '-m', 'venv', '--system-site-packages', venv], {
        timeoutMs: 120_000,
      });
      if (result.code !== 0) {
        rmSync(venv, { recursive: true, force: true });
        throw new AppError('VM_CREATE_FAILED', { reason: result.stderr.slice(-2000) });
      }
    }
    return { home, venv, workspace };
  }

  private env(project: RuntimeProject, runtimeType: ContainerType | null): NodeJS.ProcessEnv {
    const dir = this.projectDir(project.id);
    const home = path.join(dir, 'home');
    const venv = path.join(dir, 'venv');
    const threads = String(Math.max(1, Math.floor(runtimeType ? this.options.limits[runtimeType].cpu : 1)));
    return {
      HOME: home,
      PATH: `${venv}/bin:/usr/local/bin:/usr/bin:/bin`,
      VIRTUAL_ENV: venv,
      LANG: 'C.UTF-8',
      SHELL: '/bin/bash',
      TERM: 'xterm-256color',
      MPLBACKEND: 'module://matplotlib_inline.backend_inline',
      MPLCONFIGDIR: path.join(home, '.matplotlib'),
      JUPYTER_RUNTIME_DIR: path.join(home, '.jupyter-runtime'),
      OMP_NUM_THREADS: threads,
      OPENBLAS_NUM_THREADS: threads,
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
      ...(this.options.pipIndexUrl ? { PIP_INDEX_URL: this.options.pipIndexUrl } : {}),
    };
  }

  /** Runs a command as the project's user with the project's clean environment. */
  private run(project: RuntimeProject, args: string[], options: { timeoutMs?: number } = {}): Promise<ExecResult> {
    return new Promise((resolve) => {
      const child = spawn(args[0]!, args.slice(1), {
        cwd: this.workspaceDir(project),
        env: this.env(project, null),
        ...(this.identity(project) ?? {}),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => void (stdout = (stdout + d.toString()).slice(-200_000)));
      child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-200_000)));
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

  async exec(project: RuntimeProject, args: string[], options: { timeoutMs?: number } = {}): Promise<ExecResult> {
    const { venv } = await this.prepare(project);
    return this.run(project, [path.join(venv, 'bin', 'python'), ...args], options);
  }

  async start(project: RuntimeProject, runtimeType: ContainerType): Promise<RuntimeEndpoint> {
    const existing = this.running.get(project.id);
    if (existing) return existing.endpoint;
    const { venv, workspace } = await this.prepare(project);
    const port = await freePort();
    const token = randomBytes(24).toString('hex');
    const limits = this.options.limits[runtimeType];
    const jupyter = [
      path.join(venv, 'bin', 'python'),
      '-m',
      'jupyter_server',
      `--config=${this.configFile}`,
      '--ServerApp.ip=127.0.0.1',
      `--ServerApp.port=${port}`,
      `--ServerApp.token=${token}`,
      `--ServerApp.root_dir=${workspace}`,
    ];
    const command =
      this.limitsMode === 'rlimit'
        ? ['/usr/bin/prlimit', `--data=${limits.memoryMb * 1024 * 1024}`, '--nofile=4096', '--', ...jupyter]
        : jupyter;
    const child = spawn(command[0]!, command.slice(1), {
      cwd: workspace,
      env: this.env(project, runtimeType),
      ...(this.identity(project) ?? {}),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr!.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-8000)));
    const cgroup = this.limitsMode === 'cgroup' && child.pid ? this.joinCgroup(project.id, child.pid, limits) : null;
    const endpoint = { baseUrl: `http://127.0.0.1:${port}`, token };
    const entry: Running = { child, endpoint, cgroup, stopping: false };
    this.running.set(project.id, entry);
    child.once('exit', (code, signal) => {
      if (this.running.get(project.id) === entry) this.running.delete(project.id);
      this.removeCgroup(cgroup);
      if (!entry.stopping) {
        this.options.log.warn({ projectId: project.id, code, signal, log: log.slice(-2000) }, 'runtime exited');
        for (const listener of this.exitListeners) listener(project.id);
      }
    });
    try {
      await this.waitReady(endpoint, child);
    } catch (error) {
      await this.stop(project.id);
      this.options.log.warn({ projectId: project.id, log: log.slice(-4000) }, 'runtime failed to start');
      throw error;
    }
    this.options.log.info({ projectId: project.id, port, limits: this.limitsMode }, 'runtime started');
    return endpoint;
  }

  private async waitReady(endpoint: RuntimeEndpoint, child: ChildProcess) {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      try {
        const res = await fetch(`${endpoint.baseUrl}/api/status`, {
          headers: { authorization: `token ${endpoint.token}` },
        });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new AppError('CONTAINER_START_FAILED');
  }

  private joinCgroup(projectId: string, pid: number, limits: RuntimeLimits): string | null {
    const group = path.join(CGROUP_ROOT, 'aiedu-runtimes', projectId);
    try {
      mkdirSync(group, { recursive: true });
      writeFileSync(path.join(group, 'memory.max'), String(limits.memoryMb * 1024 * 1024));
      writeFileSync(path.join(group, 'cpu.max'), `${Math.round(limits.cpu * 100_000)} 100000`);
      writeFileSync(path.join(group, 'cgroup.procs'), String(pid));
      return group;
    } catch (error) {
      this.options.log.warn({ projectId, error: (error as Error).message }, 'cgroup limits not applied');
      return null;
    }
  }

  private removeCgroup(group: string | null) {
    if (!group) return;
    try {
      rmSync(group, { recursive: false });
    } catch {
      // still has processes; the kernel removes it once they are gone
    }
  }

  async stop(projectId: string): Promise<void> {
    const entry = this.running.get(projectId);
    if (!entry) return;
    entry.stopping = true;
    const exited = new Promise<void>((resolve) => {
      if (entry.child.exitCode !== null || entry.child.signalCode !== null) resolve();
      else entry.child.once('exit', () => resolve());
    });
    // Jupyter shuts its kernels and terminals down on SIGTERM; SIGKILL after a grace period.
    entry.child.kill('SIGTERM');
    const timer = setTimeout(() => entry.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    this.running.delete(projectId);
  }

  status(projectId: string): 'RUNNING' | 'STOPPED' {
    return this.running.has(projectId) ? 'RUNNING' : 'STOPPED';
  }

  async usage(projectId: string): Promise<RuntimeUsage | null> {
    const entry = this.running.get(projectId);
    if (!entry?.child.pid) return null;
    if (entry.cgroup) {
      const memoryBytes = Number(readFileSync(path.join(entry.cgroup, 'memory.current'), 'utf8'));
      const cpu = /usage_usec (\d+)/.exec(readFileSync(path.join(entry.cgroup, 'cpu.stat'), 'utf8'));
      return { memoryBytes, cpuSeconds: Number(cpu?.[1] ?? 0) / 1e6 };
    }
    return processTreeUsage(entry.child.pid);
  }

  onExit(listener: (projectId: string) => void): void {
    this.exitListeners.push(listener);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }
}

/** Resident memory and CPU time of a process and its descendants, from /proc. */
function processTreeUsage(rootPid: number): RuntimeUsage {
  const children = new Map<number, number[]>();
  const stats = new Map<number, { rss: number; cpu: number }>();
  const ticks = 100;
  const pageSize = 4096;
  for (const entry of safeReaddir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const cpu = (Number(fields[11]) + Number(fields[12])) / ticks;
      const rss = Number(fields[21]) * pageSize;
      stats.set(pid, { rss, cpu });
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // the process ended while we read
    }
  }
  let memoryBytes = 0;
  let cpuSeconds = 0;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    const s = stats.get(pid);
    if (s) {
      memoryBytes += s.rss;
      cpuSeconds += s.cpu;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return { memoryBytes, cpuSeconds };
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
