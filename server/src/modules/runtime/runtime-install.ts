import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TRuntimeAvailability } from '@aiedu/contracts';
import { NFT } from './runtime-network.js';

/**
 * The Debian packages a local runtime needs; CI and the start install the same list. nftables keeps runtimes from
 * the machine's services (runtime-network.ts).
 */
export const RUNTIME_PACKAGES = [
  'jupyter-server',
  'python3-ipykernel',
  'python3-numpy',
  'python3-matplotlib',
  'python3-venv',
  'nftables',
];
export const INSTALL_COMMAND = `sudo apt-get install -y --no-install-recommends ${RUNTIME_PACKAGES.join(' ')}`;

/**
 * True when `python` can import everything a runtime needs and, run as root (where runtimes are other users whose
 * network the server can close), nftables is there to close it.
 */
export function runtimeInstalled(python: string): boolean {
  if (process.getuid?.() === 0 && !existsSync(NFT)) return false;
  const probe = spawnSync(python, ['-c', 'import jupyter_server, ipykernel, numpy, matplotlib, venv, ensurepip'], {
    stdio: 'ignore',
    timeout: 30_000,
  });
  return probe.status === 0;
}

/**
 * Whether this server can run notebooks. On a fresh machine started as root with apt, the start installs the
 * Debian packages in the background (progress in the log and in the editor); otherwise the editor and the log
 * name the command an administrator must run.
 */
export class RuntimeAvailability {
  /** Probed on first use, not at start: a probe imports Python packages and takes a second. */
  private probed: TRuntimeAvailability['state'] | null = null;
  private progress = '';
  private readonly readyListeners: (() => void)[] = [];

  constructor(
    /** Null: runtimes run elsewhere (Kubernetes pods of the runtime image), always ready. */
    private readonly python: string | null,
    private readonly limits: TRuntimeAvailability['limits'],
    private readonly log: { info(o: object, m: string): void; warn(o: object, m: string): void },
  ) {}

  private get state(): TRuntimeAvailability['state'] {
    this.probed ??= this.python === null || runtimeInstalled(this.python) ? 'ready' : 'missing';
    return this.probed;
  }

  private set state(value: TRuntimeAvailability['state']) {
    this.probed = value;
  }

  /** The installation's side of the availability (the route adds the disk's). */
  get current(): Omit<TRuntimeAvailability, 'diskFull'> {
    return { state: this.state, command: INSTALL_COMMAND, progress: this.progress, limits: this.limits };
  }

  /** Called once an installation this process ran has finished well. */
  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  /** Installs the packages when missing and allowed (root with apt-get); answers whether it started. */
  installIfMissing(): boolean {
    if (this.state !== 'missing') return false;
    const mayInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
    if (!mayInstall) {
      this.log.warn({ command: INSTALL_COMMAND }, 'notebook runtime missing: run this command, then restart');
      return false;
    }
    this.state = 'installing';
    this.log.info({ packages: RUNTIME_PACKAGES }, 'installing the notebook runtime (apt-get)');
    const script = `apt-get update -q && apt-get install -y -q --no-install-recommends ${RUNTIME_PACKAGES.join(' ')}`;
    const child = spawn('/bin/sh', ['-c', script], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const onLine = (chunk: Buffer) => {
      const line = chunk.toString().trim().split('\n').pop() ?? '';
      if (!line) return;
      this.progress = line.slice(0, 300);
      if (/^(Get:|Unpacking|Setting up)/.test(line)) this.log.info({ progress: this.progress }, 'runtime install');
    };
    child.stdout.on('data', onLine);
    child.stderr.on('data', onLine);
    child.on('close', (code) => {
      this.state = code === 0 && runtimeInstalled(this.python!) ? 'ready' : 'failed';
      if (this.state === 'ready') {
        this.log.info({}, 'notebook runtime installed');
        for (const listener of this.readyListeners) listener();
      } else this.log.warn({ command: INSTALL_COMMAND, progress: this.progress }, 'notebook runtime install failed');
    });
    return true;
  }
}
