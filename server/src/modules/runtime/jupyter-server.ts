import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ContainerType } from '@aiedu/contracts';
import { v7 as uuidv7 } from 'uuid';
import type { RuntimeLimits } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import { joinCgroup, type LimitsMode } from './cgroup-limits.js';
import { JUPYTER_CONFIG, KERNEL_LAUNCHER, KERNEL_SPEC, SERVER_LAUNCHER, TERMINAL_RC } from './jupyter-config.js';
import { hidingCommand } from './process-view.js';
import type { RuntimeEndpoint } from './runtime-driver.js';

const READY_TIMEOUT_MS = 30_000;
export const PRLIMIT = '/usr/bin/prlimit';

/** `prlimit`'s bound on the processes of the project's user, where the runtime has one of its own. */
export const nproc = (maxProcesses: number | null) => (maxProcesses ? [`--nproc=${maxProcesses}`] : []);
const NICE = '/usr/bin/nice';

/**
 * Writes what every runtime's server reads into `rootDir`: its configuration, its launcher and the kernel spec
 * (with the kernel's launcher), which the project's user reads after the bind.
 */
export function writeJupyterFiles(rootDir: string) {
  const configFile = path.join(rootDir, 'jupyter_server_config.py');
  writeFileSync(configFile, JUPYTER_CONFIG, { mode: 0o644 });
  const launcherFile = path.join(rootDir, 'jupyter_server_launch.py');
  writeFileSync(launcherFile, SERVER_LAUNCHER, { mode: 0o644 });
  const jupyterPath = path.join(rootDir, 'jupyter');
  const kernelDir = path.join(jupyterPath, 'kernels', 'python3');
  mkdirSync(kernelDir, { recursive: true });
  for (const folder of [jupyterPath, path.dirname(kernelDir), kernelDir]) chmodSync(folder, 0o755);
  writeFileSync(path.join(kernelDir, 'kernel.json'), JSON.stringify(KERNEL_SPEC, null, 1), { mode: 0o644 });
  writeFileSync(path.join(kernelDir, 'launch.py'), KERNEL_LAUNCHER, { mode: 0o644 });
  // The config names it by its own folder: `bashrc` beside it.
  writeFileSync(path.join(rootDir, 'bashrc'), TERMINAL_RC, { mode: 0o644 });
  return { configFile, launcherFile, jupyterPath };
}

/** One Jupyter server process, unbound (just started, or waiting in the warm pool) or bound to a project. */
export interface JupyterServer {
  /** Names the server's own folder (`pool/<id>`) and cgroup. */
  id: string;
  runtimeType: ContainerType;
  child: ChildProcess;
  endpoint: RuntimeEndpoint;
  cgroup: string | null;
  /** The server's own folder (its Jupyter runtime files before the bind). */
  dir: string;
  /** Resolves when the process has ended. */
  exited: Promise<void>;
  /** The last lines Jupyter wrote to stderr. */
  log(): string;
}

export interface LaunchOptions {
  python: string;
  configFile: string;
  /** The script that starts Jupyter Server (`SERVER_LAUNCHER`). */
  launcherFile: string;
  /** `DATA_DIR/runtime/jupyter`: the platform's kernel spec. */
  jupyterPath: string;
  /** `DATA_DIR/runtime/pool`: one folder per server process. */
  poolDir: string;
  limitsMode: LimitsMode;
  cgroupRoot: string;
  limits: RuntimeLimits;
  /**
   * The processes and threads a runtime may have at once (its cgroup's `pids.max`, or `prlimit --nproc`, which
   * counts the project user's); null where every runtime is the server's own user, whose count it would be (no
   * cgroups either: only root makes them).
   */
  maxProcesses: number | null;
  /** A warm-pool server starts at a lower CPU priority, so it never slows a student's start. */
  background: boolean;
  /** Started in a mount namespace whose `/proc` shows each user only its own processes (process-view.ts). */
  hideProcesses: boolean;
  log: { warn(o: object, m: string): void };
}

/** What a bind makes of a server: the project's root directory, environment and (run as root) user. */
export interface BindSpec {
  rootDir: string;
  env: NodeJS.ProcessEnv;
  identity: { uid: number; gid: number } | null;
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

/** What a project's processes call their user (its uid has no entry in the machine's user list). */
export const RUNTIME_USER_NAME = 'aiedu';

/** A project's name as a terminal prompt shows it: letters, digits and CJK, other characters as '-'. */
export function promptName(name: string | undefined): string {
  const cleaned = (name ?? '')
    .replace(/[^\p{L}\p{N}_.-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30);
  return cleaned || 'project';
}

export const threadsFor = (limits: RuntimeLimits) => String(Math.max(1, Math.floor(limits.cpu)));

/**
 * The environment a project's processes (its Jupyter server once bound, kernels, terminals, pip) get, and nothing
 * of the platform's: its home and virtual environment, our kernel spec, numeric libraries' threads by the runtime's
 * CPU, and the pip index.
 */
export function projectEnvironment(options: {
  home: string;
  venv: string;
  jupyterPath: string;
  runtimeDir: string;
  limits: RuntimeLimits;
  pipIndexUrl: string | undefined;
  /** The project's name, for a terminal's prompt. */
  projectName?: string;
}): Record<string, string> {
  const threads = threadsFor(options.limits);
  return {
    HOME: options.home,
    // The project's user has no entry in the machine's user list: tools that ask for a name (getpass, a
    // terminal's prompt) read these.
    USER: RUNTIME_USER_NAME,
    LOGNAME: RUNTIME_USER_NAME,
    AIEDU_PROJECT: promptName(options.projectName),
    PATH: `${options.venv}/bin:/usr/local/bin:/usr/bin:/bin`,
    VIRTUAL_ENV: options.venv,
    LANG: 'C.UTF-8',
    SHELL: '/bin/bash',
    TERM: 'xterm-256color',
    MPLBACKEND: 'module://matplotlib_inline.backend_inline',
    MPLCONFIGDIR: path.join(options.home, '.matplotlib'),
    // The project's own temporary folder (made and emptied at each start), not the machine's shared /tmp.
    TMPDIR: path.join(options.home, '.tmp'),
    JUPYTER_PATH: options.jupyterPath,
    JUPYTER_RUNTIME_DIR: options.runtimeDir,
    OMP_NUM_THREADS: threads,
    OPENBLAS_NUM_THREADS: threads,
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PYDEVD_DISABLE_FILE_VALIDATION: '1',
    ...(options.pipIndexUrl ? { PIP_INDEX_URL: options.pipIndexUrl } : {}),
  };
}

/**
 * Starts an unbound Jupyter server for a runtime type (its memory and CPU limits) on a random loopback port with a
 * random token, in its own folder, and waits until it answers. It serves nothing of any project until bound.
 */
export async function launchServer(runtimeType: ContainerType, options: LaunchOptions): Promise<JupyterServer> {
  const id = uuidv7();
  const dir = path.join(options.poolDir, id);
  mkdirSync(path.join(dir, 'runtime'), { recursive: true, mode: 0o700 });
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  const threads = threadsFor(options.limits);
  const jupyter = [
    options.python,
    options.launcherFile,
    `--config=${options.configFile}`,
    '--ServerApp.ip=127.0.0.1',
    `--ServerApp.port=${port}`,
    `--ServerApp.root_dir=${dir}`,
  ];
  const isolated = options.hideProcesses ? hidingCommand(jupyter) : jupyter;
  let command =
    options.limitsMode === 'rlimit'
      ? [
          PRLIMIT,
          `--data=${options.limits.memoryMb * 1024 * 1024}`,
          '--nofile=4096',
          ...nproc(options.maxProcesses),
          '--',
          ...isolated,
        ]
      : isolated;
  // Only root may raise the priority back at the bind, so only root starts servers niced.
  const isRoot = process.getuid?.() === 0;
  if (options.background && isRoot) command = [NICE, '-n', '10', ...command];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: dir,
    env: {
      HOME: dir,
      PATH: '/usr/local/bin:/usr/bin:/bin',
      LANG: 'C.UTF-8',
      SHELL: '/bin/bash',
      TERM: 'xterm-256color',
      JUPYTER_PATH: options.jupyterPath,
      JUPYTER_CONFIG_DIR: path.join(dir, 'config'),
      JUPYTER_RUNTIME_DIR: path.join(dir, 'runtime'),
      // In its environment, which only its own user reads; never on its command line, which every user can list.
      JUPYTER_TOKEN: token,
      OMP_NUM_THREADS: threads,
      OPENBLAS_NUM_THREADS: threads,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-8000)));
  // A process that could not be started (no such Python) emits 'error' and never 'exit'.
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  let cgroup: string | null = null;
  if (options.limitsMode === 'cgroup' && child.pid) {
    try {
      cgroup = joinCgroup(options.cgroupRoot, id, child.pid, options.limits, options.maxProcesses);
    } catch (error) {
      options.log.warn({ runtimeType, error: (error as Error).message }, 'cgroup limits not applied');
    }
  }
  const server: JupyterServer = {
    id,
    runtimeType,
    child,
    endpoint: { baseUrl: `http://127.0.0.1:${port}`, token },
    cgroup,
    dir,
    exited,
    log: () => log,
  };
  try {
    await waitReady(server);
  } catch (error) {
    await killServer(server);
    throw error;
  }
  return server;
}

const isRunning = (child: ChildProcess) =>
  child.pid !== undefined && child.exitCode === null && child.signalCode === null;

/** Ready once Jupyter answers and its kernel started ahead has done its imports (or given up). */
async function waitReady(server: JupyterServer) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const kernelAhead = path.join(server.dir, 'runtime', 'kernel-ahead');
  let answering = false;
  while (Date.now() < deadline && isRunning(server.child)) {
    try {
      answering ||= (
        await fetch(`${server.endpoint.baseUrl}/api/status`, {
          headers: { authorization: `token ${server.endpoint.token}` },
        })
      ).ok;
      if (answering && existsSync(kernelAhead)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new AppError('CONTAINER_START_FAILED');
}

export function serverAlive(server: JupyterServer): boolean {
  return isRunning(server.child);
}

/**
 * Binds an unbound server to a project; it drops to the project's user before answering. The bind gives it a new
 * token, held only here and by the server's own memory, and answers the endpoint with it: the token the server was
 * started with (in its environment, or a pod's definition) opens nothing afterwards.
 */
export async function bindServer(
  server: Pick<JupyterServer, 'endpoint' | 'dir'>,
  spec: BindSpec,
): Promise<RuntimeEndpoint> {
  const token = randomBytes(24).toString('hex');
  const res = await fetch(`${server.endpoint.baseUrl}/aiedu/bind`, {
    method: 'POST',
    headers: { authorization: `token ${server.endpoint.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      root_dir: spec.rootDir,
      slot_dir: server.dir,
      env: spec.env,
      uid: spec.identity?.uid ?? null,
      gid: spec.identity?.gid ?? null,
      token,
    }),
  });
  if (!res.ok) throw new AppError('CONTAINER_START_FAILED');
  const bound = (await res.json()) as { uid: number };
  if (spec.identity && bound.uid !== spec.identity.uid) throw new AppError('CONTAINER_START_FAILED');
  return { ...server.endpoint, token };
}

/** SIGTERM (Jupyter shuts its kernels and terminals down), SIGKILL after a grace period. */
export async function killServer(server: JupyterServer): Promise<void> {
  if (isRunning(server.child)) {
    server.child.kill('SIGTERM');
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
    await server.exited;
    clearTimeout(timer);
  }
}
