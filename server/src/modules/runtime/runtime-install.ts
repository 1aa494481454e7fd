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
/**
 * The AI environment a project may choose (spec 3, "runtime environment"): Debian's data and machine-learning
 * packages on top of the plain one, about 250 MB on disk. Installed when the first AI project starts.
 */
export const AI_PACKAGES = [
  'python3-pandas',
  'python3-sklearn',
  'python3-torch',
  'python3-opencv',
  'python3-pil',
  'python3-scipy',
];

/** A set of Debian packages, and a Python probe that exits 0 when they are there. */
export interface PackageSet {
  packages: readonly string[];
  probe: string;
  /** Run as root, runtimes must be cut off from the machine's services: nftables must be there. */
  needsFirewall: boolean;
}

export const BASE_SET: PackageSet = {
  packages: RUNTIME_PACKAGES,
  probe: 'import jupyter_server, ipykernel, numpy, matplotlib, venv, ensurepip',
  needsFirewall: true,
};
export const AI_SET: PackageSet = {
  packages: AI_PACKAGES,
  // Found, not imported: importing torch takes seconds, and the probe runs on a request.
  probe:
    'import importlib.util as u, sys; ' +
    "sys.exit(0 if all(u.find_spec(m) for m in ('pandas', 'sklearn', 'torch', 'cv2', 'PIL', 'scipy')) else 1)",
  needsFirewall: false,
};

export function installCommand(set: PackageSet): string {
  return `sudo apt-get install -y --no-install-recommends ${set.packages.join(' ')}`;
}

/**
 * True when `python` can import everything the set needs and, run as root (where runtimes are other users whose
 * network the server can close), nftables is there to close it.
 */
export function runtimeInstalled(python: string, set: PackageSet = BASE_SET): boolean {
  if (set.needsFirewall && process.getuid?.() === 0 && !existsSync(NFT)) return false;
  const probe = spawnSync(python, ['-c', set.probe], { stdio: 'ignore', timeout: 30_000 });
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
    private readonly set: PackageSet = BASE_SET,
  ) {}

  private get command() {
    return installCommand(this.set);
  }

  private get state(): TRuntimeAvailability['state'] {
    this.probed ??= this.python === null || runtimeInstalled(this.python, this.set) ? 'ready' : 'missing';
    return this.probed;
  }

  private set state(value: TRuntimeAvailability['state']) {
    this.probed = value;
  }

  /** The installation's side of the availability (the route adds the disk's). */
  get current(): Omit<TRuntimeAvailability, 'diskFull' | 'ai'> {
    return { state: this.state, command: this.command, progress: this.progress, limits: this.limits };
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
      this.log.warn({ command: this.command }, 'runtime packages missing: run this command, then restart');
      return false;
    }
    this.state = 'installing';
    this.log.info({ packages: this.set.packages }, 'installing runtime packages (apt-get)');
    const script = `apt-get update -q && apt-get install -y -q --no-install-recommends ${this.set.packages.join(' ')}`;
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
      this.state = code === 0 && runtimeInstalled(this.python!, this.set) ? 'ready' : 'failed';
      if (this.state === 'ready') {
        this.log.info({ packages: this.set.packages }, 'runtime packages installed');
        for (const listener of this.readyListeners) listener();
      } else this.log.warn({ command: this.command, progress: this.progress }, 'runtime packages install failed');
    });
    return true;
  }
}
