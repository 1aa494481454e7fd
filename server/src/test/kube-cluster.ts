import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig, type V1ConfigMap, type V1Pod } from '@kubernetes/client-node';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A one-node Kubernetes for tests, on this machine: the API server's calls the runtime driver makes (pods,
 * ConfigMaps, pod logs, watches, exec over the v4 channel protocol), with a kubelet that runs each pod's container
 * as a process of the host's system (the image is not pulled: the host has the runtime's Debian packages). The
 * container gets its own mount namespace with a tmpfs on `/srv` and its volumes bound under it (a claim's folder,
 * with its subPath; a ConfigMap's items; an emptyDir), its own loopback address as the pod IP, its environment
 * alone, and the pod's user. Needs root and `unshare`.
 */
export const KUBELET_MISSING =
  process.getuid?.() !== 0 || spawnSync('unshare', ['-m', 'true'], { stdio: 'ignore' }).status !== 0;

interface PodRecord {
  pod: V1Pod;
  process: ChildProcess | null;
  log: string;
  deleting: boolean;
  gone: Promise<void>;
  markGone: () => void;
  scratch: string;
}

type Event = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: V1Pod };

const status = (code: number, reason: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  reason,
  message,
  code,
});

const matches = (pod: V1Pod, selector: string | null) =>
  !selector ||
  selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return pod.metadata?.labels?.[key!] === value;
  });

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export class KubeCluster {
  readonly pods = new Map<string, PodRecord>();
  readonly configMaps = new Map<string, V1ConfigMap>();
  /** Every call, as `METHOD path`. */
  readonly calls: string[] = [];
  /** What the calls needed, as RBAC names it: `verb resource`, e.g. `watch pods`, `create pods/exec`. */
  readonly access = new Set<string>();
  private readonly watchers = new Set<{ selector: string | null; send: (event: Event) => void; end: () => void }>();
  private readonly server: http.Server;
  private readonly sockets = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false),
  });
  private readonly subnet = `127.${randomInt(100, 250)}.${randomInt(1, 250)}`;
  private nextAddress = 2;
  private url = '';
  private readonly token = randomBytes(16).toString('hex');

  /** `claims`: each PersistentVolumeClaim's folder on this machine. */
  constructor(private readonly claims: Record<string, string>) {
    this.server = http.createServer((req, res) => {
      if (this.authenticated(req)) return void this.handle(req, res);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status(401, 'Unauthorized', 'Unauthorized')));
    });
    this.server.on('upgrade', (req, socket, head) => {
      if (!this.authenticated(req)) return void socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n');
      this.sockets.handleUpgrade(req, socket, head, (ws) => this.exec(req, ws));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Whether a request carries the cluster's token, as the driver's kubeconfig sends it. A real API server refuses an
   * anonymous caller; so does this one, and such a call is neither recorded nor counted as access (another test's
   * process may knock on every port of the machine).
   */
  private authenticated(req: http.IncomingMessage): boolean {
    return req.headers.authorization === `Bearer ${this.token}`;
  }

  kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'test', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'test', token: this.token }],
      contexts: [{ name: 'test', cluster: 'test', user: 'test', namespace: 'aiedu' }],
      currentContext: 'test',
    });
    return config;
  }

  /** Ends every watch, as the API server does when a watch's time is up; answers how many there were. */
  endWatches(): number {
    const count = this.watchers.size;
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
    return count;
  }

  /** Watches open now. */
  watching(): number {
    return this.watchers.size;
  }

  /** Deletes a pod as someone else would (an administrator, an eviction), without waiting for it to go. */
  delete(name: string) {
    void this.remove(name);
  }

  /** Kills a pod's container, as the kernel's OOM killer or an eviction would. */
  kill(name: string) {
    this.pods.get(name)?.process?.kill('SIGKILL');
  }

  async close() {
    for (const name of [...this.pods.keys()]) await this.remove(name);
    for (const socket of this.sockets.clients) socket.terminate();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private emit(type: Event['type'], pod: V1Pod) {
    for (const watcher of this.watchers) if (matches(pod, watcher.selector)) watcher.send({ type, object: pod });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, this.url);
    this.calls.push(`${req.method} ${url.pathname}`);
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : null;
    const [, kind, name, sub] =
      /^\/api\/v1\/namespaces\/[^/]+\/(pods|configmaps)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(url.pathname) ?? [];
    const verb =
      req.method === 'POST'
        ? 'create'
        : req.method === 'DELETE'
          ? 'delete'
          : name
            ? 'get'
            : url.searchParams.get('watch') === 'true'
              ? 'watch'
              : 'list';
    this.access.add(`${verb} ${kind}${sub ? `/${sub}` : ''}`);
    if (kind === 'configmaps') {
      if (req.method === 'POST') {
        const map = body as V1ConfigMap;
        if (this.configMaps.has(map.metadata!.name!)) return json(409, status(409, 'AlreadyExists', 'exists'));
        this.configMaps.set(map.metadata!.name!, map);
        return json(201, map);
      }
      const map = name ? this.configMaps.get(name) : undefined;
      return map ? json(200, map) : json(404, status(404, 'NotFound', 'no such ConfigMap'));
    }
    if (kind !== 'pods') return json(404, status(404, 'NotFound', 'not served here'));
    if (!name && req.method === 'POST') return this.create(body as V1Pod, json);
    if (!name && url.searchParams.get('watch') === 'true')
      return this.watch(url.searchParams.get('labelSelector'), res);
    if (!name) {
      const selector = url.searchParams.get('labelSelector');
      const items = [...this.pods.values()].map((r) => r.pod).filter((pod) => matches(pod, selector));
      return json(200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items });
    }
    const record = this.pods.get(name);
    if (!record) return json(404, status(404, 'NotFound', `pods "${name}" not found`));
    if (sub === 'log') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(record.log);
    }
    if (req.method === 'DELETE') {
      void this.remove(name);
      return json(200, record.pod);
    }
    return json(200, record.pod);
  }

  private watch(selector: string | null, res: http.ServerResponse) {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    const watcher = { selector, send: (event: Event) => res.write(`${JSON.stringify(event)}\n`), end: () => res.end() };
    for (const record of this.pods.values())
      if (matches(record.pod, selector)) watcher.send({ type: 'ADDED', object: record.pod });
    this.watchers.add(watcher);
    res.on('close', () => this.watchers.delete(watcher));
  }

  private create(pod: V1Pod, json: (code: number, body: unknown) => void) {
    const name = pod.metadata!.name!;
    if (this.pods.has(name)) return json(409, status(409, 'AlreadyExists', `pods "${name}" already exists`));
    pod.metadata!.uid = `${Date.now()}-${randomInt(1e9)}`;
    pod.metadata!.namespace = 'aiedu';
    pod.status = { phase: 'Pending' };
    let markGone = () => {};
    const gone = new Promise<void>((resolve) => (markGone = resolve));
    const record: PodRecord = {
      pod,
      process: null,
      log: '',
      deleting: false,
      gone,
      markGone,
      scratch: mkdtempSync(path.join(os.tmpdir(), 'aiedu-pod-')),
    };
    this.pods.set(name, record);
    this.emit('ADDED', pod);
    json(201, pod);
    setImmediate(() => this.run(record));
  }

  /** The container's environment, with `fieldRef`s resolved. */
  private environment(pod: V1Pod): Record<string, string> {
    const env: Record<string, string> = {};
    for (const variable of pod.spec!.containers[0]!.env ?? []) {
      env[variable.name] =
        variable.valueFrom?.fieldRef?.fieldPath === 'status.podIP' ? pod.status!.podIP! : (variable.value ?? '');
    }
    return env;
  }

  /** The shell lines (run as root in the pod's mount namespace) that put its volumes in place. */
  private mounts(record: PodRecord): string[] {
    const spec = record.pod.spec!;
    const container = spec.containers[0]!;
    const lines = ['mount -t tmpfs tmpfs /srv'];
    for (const mount of container.volumeMounts ?? []) {
      const volume = spec.volumes!.find((v) => v.name === mount.name)!;
      let source: string;
      if (volume.persistentVolumeClaim) {
        source = path.join(this.claims[volume.persistentVolumeClaim.claimName]!, mount.subPath ?? '');
      } else if (volume.configMap) {
        source = path.join(record.scratch, mount.name);
        const data = this.configMaps.get(volume.configMap.name!)!.data!;
        for (const item of volume.configMap.items!) {
          mkdirSync(path.dirname(path.join(source, item.path)), { recursive: true });
          writeFileSync(path.join(source, item.path), data[item.key]!, { mode: 0o644 });
        }
        chmodSync(record.scratch, 0o755);
      } else {
        source = path.join(record.scratch, mount.name);
        mkdirSync(source, { recursive: true });
        chmodSync(source, 0o777);
        chmodSync(record.scratch, 0o755);
      }
      if (!mount.mountPath.startsWith('/srv/'))
        throw new Error(`this kubelet mounts under /srv only: ${mount.mountPath}`);
      lines.push(`mkdir -p ${quote(mount.mountPath)}`, `mount --bind ${quote(source)} ${quote(mount.mountPath)}`);
      if (mount.readOnly) lines.push(`mount -o remount,bind,ro ${quote(mount.mountPath)}`);
    }
    return lines;
  }

  private user(pod: V1Pod): string[] {
    const context = pod.spec!.securityContext ?? {};
    return [
      'setpriv',
      `--reuid=${context.runAsUser ?? 0}`,
      `--regid=${context.runAsGroup ?? 0}`,
      '--clear-groups',
      '--no-new-privs',
    ];
  }

  private run(record: PodRecord) {
    if (record.deleting) return;
    const pod = record.pod;
    const container = pod.spec!.containers[0]!;
    if (container.image === 'registry.invalid/missing:1') {
      pod.status = {
        phase: 'Pending',
        containerStatuses: [
          {
            name: container.name,
            ready: false,
            restartCount: 0,
            image: container.image,
            imageID: '',
            state: { waiting: { reason: 'ErrImagePull' } },
          },
        ],
      };
      return this.emit('MODIFIED', pod);
    }
    pod.status = { phase: 'Pending', podIP: `${this.subnet}.${this.nextAddress++}` };
    const env = this.environment(pod);
    const command = [...(container.command ?? []), ...(container.args ?? [])];
    const script = [
      ...this.mounts(record),
      `cd ${quote(container.workingDir ?? '/')}`,
      // The container runs once its volumes are in place: only then does the pod report Running.
      'echo started >&3',
      'exec 3>&-',
      `exec ${[...this.user(pod), 'env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command].map(quote).join(' ')}`,
    ].join(' && ');
    const child = spawn('unshare', ['-m', '--propagation', 'private', '/bin/sh', '-c', script], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    record.process = child;
    const collect = (d: Buffer) => void (record.log = (record.log + d.toString()).slice(-20_000));
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.stdio[3]!.once('data', () => this.started(record));
    child.on('exit', (code, signal) => this.ended(record, code, signal));
  }

  private started(record: PodRecord) {
    const pod = record.pod;
    const container = pod.spec!.containers[0]!;
    if (pod.status?.phase !== 'Pending') return;
    pod.status = {
      ...pod.status,
      phase: 'Running',
      containerStatuses: [
        {
          name: container.name,
          ready: true,
          restartCount: 0,
          image: container.image!,
          imageID: '',
          state: { running: { startedAt: new Date() } },
        },
      ],
    };
    this.emit('MODIFIED', pod);
  }

  private ended(record: PodRecord, code: number | null, signal: NodeJS.Signals | null) {
    const pod = record.pod;
    const container = pod.spec!.containers[0]!;
    const exitCode = code ?? (signal === 'SIGKILL' ? 137 : 143);
    pod.status = {
      ...pod.status,
      phase: exitCode === 0 ? 'Succeeded' : 'Failed',
      reason: signal === 'SIGKILL' && !record.deleting ? 'OOMKilled' : undefined,
      containerStatuses: [
        {
          name: container.name,
          ready: false,
          restartCount: 0,
          image: container.image!,
          imageID: '',
          state: { terminated: { exitCode } },
        },
      ],
    };
    this.emit('MODIFIED', pod);
    if (record.deleting) this.forget(record);
  }

  private forget(record: PodRecord) {
    const name = record.pod.metadata!.name!;
    if (this.pods.get(name) !== record) return;
    this.pods.delete(name);
    rmSync(record.scratch, { recursive: true, force: true });
    this.emit('DELETED', record.pod);
    record.markGone();
  }

  /** As the kubelet does on delete: SIGTERM, SIGKILL after the grace period, then the pod is gone. */
  private async remove(name: string) {
    const record = this.pods.get(name);
    if (!record) return;
    if (!record.deleting) {
      record.deleting = true;
      record.pod.metadata!.deletionTimestamp = new Date();
      const child = record.process;
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const grace = (record.pod.spec!.terminationGracePeriodSeconds ?? 30) * 1000;
        setTimeout(() => child.kill('SIGKILL'), grace).unref();
      } else {
        this.forget(record);
      }
    }
    await record.gone;
  }

  /** `exec` over the v4 channel protocol: 1 stdout, 2 stderr, 3 the status, in the container's namespace and user. */
  private exec(req: http.IncomingMessage, ws: WebSocket) {
    const url = new URL(req.url!, this.url);
    this.calls.push(`EXEC ${url.pathname}`);
    this.access.add('create pods/exec');
    const name = /\/pods\/([^/]+)\/exec$/.exec(url.pathname)?.[1] ?? '';
    const record = this.pods.get(name);
    const pid = record?.process?.pid;
    const finish = (body: object) => {
      ws.send(Buffer.concat([Buffer.from([3]), Buffer.from(JSON.stringify(body))]));
      ws.close(1000);
    };
    if (!record || !pid || record.pod.status?.phase !== 'Running') {
      return finish({ metadata: {}, status: 'Failure', message: 'container not running', reason: 'BadRequest' });
    }
    const container = record.pod.spec!.containers[0]!;
    const env = this.environment(record.pod);
    const command = url.searchParams.getAll('command');
    const inner = `cd ${quote(container.workingDir ?? '/')} && exec ${[...this.user(record.pod), 'env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command].map(quote).join(' ')}`;
    const child = spawn('nsenter', ['-t', String(pid), '-m', '--', '/bin/sh', '-c', inner], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => ws.send(Buffer.concat([Buffer.from([1]), d])));
    child.stderr.on('data', (d: Buffer) => ws.send(Buffer.concat([Buffer.from([2]), d])));
    child.on('close', (code, signal) => {
      const exit = code ?? (signal === 'SIGKILL' ? 137 : 1);
      if (exit === 0) return finish({ metadata: {}, status: 'Success' });
      finish({
        metadata: {},
        status: 'Failure',
        message: `command terminated with non-zero exit code: ${exit}`,
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: String(exit) }] },
      });
    });
  }
}
