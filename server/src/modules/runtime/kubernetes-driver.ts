import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import {
  ApiException,
  CoreV1Api,
  Exec,
  Watch,
  type KubeConfig,
  type V1Pod,
  type V1Status,
} from '@kubernetes/client-node';
import type { ContainerType, TRuntimeIsolation } from '@aiedu/contracts';
import type { RuntimeLimits } from '../../config.js';
import { diskUsage } from '../../platform/disk-space.js';
import { AppError } from '../../platform/errors.js';
import { bindServer } from './jupyter-server.js';
import {
  CONTAINER,
  podEnvironment,
  PORT,
  POD_PROJECT,
  POD_SERVER,
  PREPARE,
  RUNTIME_CONFIG_FILES,
  runtimePod,
} from './kubernetes-pods.js';
import { FolderWorkspaces, ProjectFolders } from './project-folders.js';
import type {
  ExecOptions,
  ExecResult,
  RuntimeDriver,
  RuntimeEndpoint,
  RuntimeProject,
  RuntimeUsage,
} from './runtime-driver.js';

const MANAGED = 'app.kubernetes.io/managed-by=aiedu';
const SWEEP_MS = 5 * 60_000;
const OUTPUT_LIMIT = 200_000;

export interface KubernetesDriverOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  /** The image every runtime runs: Debian's python3, jupyter-server, ipykernel, numpy, matplotlib, venv. */
  image: string;
  /**
   * The ReadWriteMany volume claim this process mounts at `rootDir` (`DATA_DIR/runtime`): a runtime pod mounts its
   * own project's folder of it, so the file tree, versions and quotas read the files its kernels write.
   */
  workspaceClaim: string;
  rootDir: string;
  uidBase: number;
  limits: Record<ContainerType, RuntimeLimits>;
  /** The extended resource a GPU runtime asks one of (`nvidia.com/gpu`); empty (`K8S_GPU_RESOURCE=none`) asks none. */
  gpuResource: string;
  startTimeoutMs: number;
  pipIndexUrl: string | undefined;
  /** This process's id: its pods carry it, so a process cleans up after one that died. */
  holder: string;
  /** Whether a process of this deployment is still running (its heartbeat). */
  holderAlive(holder: string): Promise<boolean>;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

interface Running {
  pod: string;
  endpoint: RuntimeEndpoint;
  stopping: boolean;
}

const isStatus = (error: unknown, code: number) => error instanceof ApiException && error.code === code;
/**
 * One pod per running project. The pod runs the same Jupyter server as a local runtime (our configuration and
 * kernel spec come from a ConfigMap) as the project's user, with the runtime type's CPU and memory as its
 * requests and limits; the project's folder of a shared volume is its `/srv/project`, so the workspace stays the one
 * folder the platform reads. Once the pod answers, it is bound like a warm-pool server (root directory and
 * environment), and the gateway reaches it at the pod's address with its own token. Package installs run in the
 * project's pod (Kubernetes exec), or in a short-lived pod of the project's when its runtime is stopped.
 *
 * A watch on this process's pods reports a pod that ends by itself (evicted, killed for memory) as a crash. Pods
 * of a process that died are deleted by the others (every five minutes, and at start).
 */
export class KubernetesRuntimeDriver extends FolderWorkspaces implements RuntimeDriver {
  readonly limitsMode = 'cgroup' as const;
  /**
   * Pods have their own network and process namespaces; what they may reach is the `aiedu-runtimes` NetworkPolicy's
   * (deploy/kubernetes/aiedu.yaml: the internet, DNS, nothing of the cluster or private networks), which only a
   * cluster whose network plugin enforces NetworkPolicies holds to.
   */
  readonly isolation: TRuntimeIsolation = {
    driver: 'kubernetes',
    network: 'policy',
    networkMode: 'internet',
    reason:
      "runtime pods reach what the aiedu-runtimes NetworkPolicy allows, where the cluster's network plugin enforces NetworkPolicies",
    processesHidden: true,
    limits: 'cgroup',
  };
  /** The disk guard walks each running project's folder: near the floor, every two seconds, not every quarter. */
  readonly diskWatchMs = 2000;
  private readonly core: CoreV1Api;
  private readonly running = new Map<string, Running>();
  private readonly exitListeners: ((projectId: string) => void)[] = [];
  protected readonly folders: ProjectFolders;
  private readonly configMap: string;
  private configMapReady: Promise<void> | null = null;
  private watching: AbortController | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: KubernetesDriverOptions) {
    super();
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.folders = new ProjectFolders(options.rootDir, options.uidBase);
    mkdirSync(options.rootDir, { recursive: true });
    // Named by its content: processes of two versions during a rolling update each keep the files they expect.
    const hash = createHash('sha256').update(JSON.stringify(RUNTIME_CONFIG_FILES)).digest('hex').slice(0, 10);
    this.configMap = `aiedu-runtime-${hash}`;
  }

  /** Creates the ConfigMap of our Jupyter files once (another process may have). */
  private ensureConfigMap(): Promise<void> {
    this.configMapReady ??= this.core
      .createNamespacedConfigMap({
        namespace: this.options.namespace,
        body: {
          metadata: { name: this.configMap, labels: { 'app.kubernetes.io/managed-by': 'aiedu' } },
          data: RUNTIME_CONFIG_FILES,
        },
      })
      .then(
        () => undefined,
        (error: unknown) => {
          if (isStatus(error, 409)) return;
          this.configMapReady = null;
          throw error;
        },
      );
    return this.configMapReady;
  }

  /** Watches this process's pods and sweeps those of dead processes; the manager calls it at its start. */
  async open(): Promise<void> {
    try {
      // The start checks the cluster, as it checks a bucket: a wrong address or a missing permission stops it here.
      await this.core.listNamespacedPod({ namespace: this.options.namespace, labelSelector: MANAGED, limit: 1 });
    } catch (error) {
      const server = this.options.kubeConfig.getCurrentCluster()?.server ?? '(no cluster)';
      throw new Error(
        `the Kubernetes API at ${server} (namespace ${this.options.namespace}) cannot be used: ${(error as Error).message}`,
      );
    }
    await this.watch();
    await this.sweep().catch((error: unknown) =>
      this.options.log.warn({ error: (error as Error).message }, 'runtime pods not swept'),
    );
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_MS);
    this.sweeper.unref();
  }

  private async watch(): Promise<void> {
    if (this.closed) return;
    // A watch ends now and then (the API server's timeout): the next one starts with the pods as they are, and a
    // runtime whose pod went in between is reported then.
    const restart = () => {
      this.watching = null;
      if (this.closed) return;
      setTimeout(() => void this.watch().then(() => this.reconcile().catch(() => undefined), restart), 1000).unref();
    };
    this.watching = await new Watch(this.options.kubeConfig).watch(
      `/api/v1/namespaces/${this.options.namespace}/pods`,
      { labelSelector: `${MANAGED},aiedu/holder=${this.options.holder}` },
      (type: string, pod: V1Pod) => this.observed(type, pod),
      () => restart(),
    );
  }

  /** A pod of a running project that failed, ended or went (not by our stop) is its runtime's crash. */
  private observed(type: string, pod: V1Pod) {
    const projectId = pod.metadata?.labels?.['aiedu/project'];
    const entry = projectId ? this.running.get(projectId) : undefined;
    if (!projectId || !entry || entry.stopping || entry.pod !== pod.metadata?.name) return;
    const phase = pod.status?.phase;
    if (type !== 'DELETED' && phase !== 'Failed' && phase !== 'Succeeded') return;
    this.running.delete(projectId);
    this.options.log.warn({ projectId, pod: entry.pod, phase, reason: pod.status?.reason }, 'runtime exited');
    if (type !== 'DELETED') void this.deletePod(entry.pod);
    for (const listener of this.exitListeners) listener(projectId);
  }

  /** Reports the runtimes whose pod is gone. */
  private async reconcile(): Promise<void> {
    const pods = await this.core.listNamespacedPod({
      namespace: this.options.namespace,
      labelSelector: `${MANAGED},aiedu/holder=${this.options.holder}`,
    });
    const names = new Set(pods.items.map((pod) => pod.metadata?.name));
    for (const [projectId, entry] of this.running) {
      if (names.has(entry.pod)) continue;
      this.observed('DELETED', { metadata: { name: entry.pod, labels: { 'aiedu/project': projectId } } });
    }
  }

  /** Deletes the pods of processes that are gone (killed without stopping their runtimes). */
  async sweep(): Promise<void> {
    const pods = await this.core.listNamespacedPod({ namespace: this.options.namespace, labelSelector: MANAGED });
    const alive = new Map<string, boolean>();
    for (const pod of pods.items) {
      const holder = pod.metadata?.labels?.['aiedu/holder'] ?? '';
      if (holder === this.options.holder) continue;
      if (!alive.has(holder)) alive.set(holder, holder !== '' && (await this.options.holderAlive(holder)));
      if (alive.get(holder)) continue;
      this.options.log.info({ pod: pod.metadata?.name, holder }, 'deleting the pod of a stopped server');
      await this.deletePod(pod.metadata!.name!);
    }
  }

  warm(): void {
    // Pods start per project: a pod's volume is its project's, fixed when it is created.
  }

  /** A pod mounts its project's datasets when it is made (see `runtimePod`): no links in the workspace. */
  override async mountDatasets(): Promise<{ blocked: string[] }> {
    return { blocked: [] };
  }

  /** The uid a project's pod runs as: its own user when this process hands files to one, else this process's. */
  private identity(project: RuntimeProject) {
    return this.folders.identity(project) ?? { uid: process.getuid?.() ?? 1000, gid: process.getgid?.() ?? 1000 };
  }

  /** A pod of the project: its Jupyter server (`rt`), or a task pod that waits for package installs. */
  podSpec(project: RuntimeProject, runtimeType: ContainerType, kind: 'rt' | 'task', token: string): V1Pod {
    return runtimePod({
      project,
      runtimeType,
      kind,
      token,
      identity: this.identity(project),
      env: podEnvironment(this.options.limits[runtimeType], this.options.pipIndexUrl),
      configMap: this.configMap,
      holder: this.options.holder,
      image: this.options.image,
      workspaceClaim: this.options.workspaceClaim,
      gpuResource: this.options.gpuResource,
      limits: this.options.limits,
    });
  }

  private async readPod(name: string): Promise<V1Pod | null> {
    try {
      return await this.core.readNamespacedPod({ name, namespace: this.options.namespace });
    } catch (error) {
      if (isStatus(error, 404)) return null;
      throw error;
    }
  }

  private async deletePod(name: string): Promise<void> {
    try {
      await this.core.deleteNamespacedPod({ name, namespace: this.options.namespace });
    } catch (error) {
      if (!isStatus(error, 404)) throw error;
    }
  }

  /** Deletes a pod and waits until it is gone (its name free again, its processes ended). */
  private async removePod(name: string, timeoutMs = 60_000): Promise<void> {
    await this.deletePod(name);
    const deadline = Date.now() + timeoutMs;
    while ((await this.readPod(name)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  }

  private async podLog(name: string): Promise<string> {
    try {
      return await this.core.readNamespacedPodLog({
        name,
        namespace: this.options.namespace,
        container: CONTAINER,
        tailLines: 40,
      });
    } catch {
      return '';
    }
  }

  /** Creates a pod and waits until it runs with an address (or fails, or the start's time is up). */
  private async createPod(body: V1Pod): Promise<V1Pod> {
    await this.ensureConfigMap();
    const name = body.metadata!.name!;
    await this.core.createNamespacedPod({ namespace: this.options.namespace, body });
    const deadline = Date.now() + this.options.startTimeoutMs;
    while (Date.now() < deadline) {
      const pod = await this.readPod(name);
      if (!pod || pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') break;
      const waiting = pod.status?.containerStatuses?.[0]?.state?.waiting?.reason ?? '';
      if (
        /ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerConfigError|CreateContainerError/.test(waiting)
      ) {
        this.options.log.warn({ pod: name, reason: waiting }, 'runtime pod cannot start');
        break;
      }
      if (pod.status?.phase === 'Running' && pod.status.podIP) return pod;
      await new Promise((r) => setTimeout(r, 250));
    }
    this.options.log.warn({ pod: name, log: await this.podLog(name) }, 'runtime pod failed to start');
    await this.deletePod(name);
    throw new AppError('CONTAINER_START_FAILED');
  }

  async start(project: RuntimeProject, runtimeType: ContainerType): Promise<RuntimeEndpoint> {
    const existing = this.running.get(project.id);
    if (existing) return existing.endpoint;
    this.ensureWorkspace(project);
    const token = randomBytes(24).toString('hex');
    const body = this.podSpec(project, runtimeType, 'rt', token);
    const name = body.metadata!.name!;
    // A pod of this project left by a process that died before its stop.
    await this.removePod(name);
    const pod = await this.createPod(body);
    let endpoint: RuntimeEndpoint = {
      baseUrl: `http://${pod.status!.podIP!.includes(':') ? `[${pod.status!.podIP}]` : pod.status!.podIP}:${PORT}`,
      token,
    };
    try {
      await this.waitAnswering(name, endpoint);
      // The bind replaces the token in the pod's definition, which whoever may read pods can read.
      endpoint = await bindServer(
        { endpoint, dir: POD_SERVER },
        {
          rootDir: `${POD_PROJECT}/workspace`,
          env: podEnvironment(this.options.limits[runtimeType], this.options.pipIndexUrl),
          identity: null,
        },
      );
    } catch (error) {
      this.options.log.warn(
        { projectId: project.id, pod: name, log: await this.podLog(name) },
        'runtime failed to start',
      );
      await this.deletePod(name);
      throw error instanceof AppError ? error : new AppError('CONTAINER_START_FAILED');
    }
    this.running.set(project.id, { pod: name, endpoint, stopping: false });
    this.options.log.info({ projectId: project.id, pod: name, address: pod.status!.podIP }, 'runtime started');
    return endpoint;
  }

  /** Jupyter answers once its virtual environment is made and it listens. */
  private async waitAnswering(name: string, endpoint: RuntimeEndpoint) {
    const deadline = Date.now() + this.options.startTimeoutMs;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${endpoint.baseUrl}/api/status`, {
          headers: { authorization: `token ${endpoint.token}` },
          signal: AbortSignal.timeout(5000),
        });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      const phase = (await this.readPod(name))?.status?.phase;
      if (phase !== 'Running') throw new AppError('CONTAINER_START_FAILED');
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new AppError('CONTAINER_START_FAILED');
  }

  async stop(projectId: string): Promise<void> {
    const entry = this.running.get(projectId);
    if (!entry) return;
    entry.stopping = true;
    await this.removePod(entry.pod);
    this.running.delete(projectId);
  }

  status(projectId: string): 'RUNNING' | 'STOPPED' {
    return this.running.has(projectId) ? 'RUNNING' : 'STOPPED';
  }

  /** Kubernetes reports a pod's usage only through the metrics API, as rates; not read here. */
  async usage(): Promise<RuntimeUsage | null> {
    return null;
  }

  /** The shared claim, as this process mounts it: the disk guard's free space is the claim's. */
  get diskDir(): string {
    return this.options.rootDir;
  }

  /**
   * What the running project's folder of the claim takes (its workspace and virtual environment): a pod's processes
   * are not this process's to read, but what they write lands there.
   */
  async writtenBytes(projectId: string): Promise<number | null> {
    if (!this.running.has(projectId)) return null;
    return diskUsage(this.folders.projectDir(projectId));
  }

  async remove(project: RuntimeProject): Promise<void> {
    await this.stop(project.id);
    rmSync(this.folders.projectDir(project.id), { recursive: true, force: true });
  }

  /**
   * Runs the project's Python with `args` in its pod, or in a task pod of its own while the runtime is stopped;
   * `timeout` in the pod ends it after `timeoutMs`.
   */
  async exec(project: RuntimeProject, args: string[], options: ExecOptions = {}): Promise<ExecResult> {
    const running = this.running.get(project.id);
    let task: string | null = null;
    try {
      if (!running) {
        this.ensureWorkspace(project);
        task = (await this.createPod(this.podSpec(project, 'BASIC', 'task', ''))).metadata!.name!;
      }
      const seconds = Math.ceil((options.timeoutMs ?? 600_000) / 1000);
      const command = [
        'timeout',
        '-s',
        'KILL',
        String(seconds),
        '/bin/sh',
        '-c',
        `${PREPARE} && exec "$VIRTUAL_ENV/bin/python" "$@"`,
        'python',
        ...args,
      ];
      return await this.execIn(task ?? running!.pod, command, options.input);
    } finally {
      if (task) await this.deletePod(task).catch(() => undefined);
    }
  }

  private execIn(pod: string, command: string[], input?: string): Promise<ExecResult> {
    const output = { stdout: '', stderr: '' };
    const sink = (key: keyof typeof output) =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          output[key] = (output[key] + chunk.toString()).slice(-OUTPUT_LIMIT);
          done();
        },
      });
    const stdin = input === undefined ? null : Readable.from([Buffer.from(input)]);
    return new Promise((resolve) => {
      let status: V1Status | null = null;
      const finish = (extra = '') => {
        const code =
          status?.status === 'Success'
            ? 0
            : Number(status?.details?.causes?.find((c) => c.reason === 'ExitCode')?.message ?? -1);
        resolve({ code, stdout: output.stdout, stderr: output.stderr + extra });
      };
      new Exec(this.options.kubeConfig)
        .exec(this.options.namespace, pod, CONTAINER, command, sink('stdout'), sink('stderr'), stdin, false, (s) => {
          status = s;
        })
        .then(
          (socket) => socket.on('close', () => finish()),
          (error: unknown) => finish((error as Error).message),
        );
    });
  }

  onExit(listener: (projectId: string) => void): void {
    this.exitListeners.push(listener);
  }

  async stopAll(): Promise<void> {
    this.closed = true;
    this.watching?.abort();
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }
}
