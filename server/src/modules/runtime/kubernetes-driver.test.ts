import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAllYaml } from '@kubernetes/client-node';
import { ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { buildCustomer, buildUser, signIn } from '../../test/factories.js';
import { JUPYTER_MISSING, KernelChannel, stdoutOf, waitFor } from '../../test/jupyter-kit.js';
import { KUBELET_MISSING, KubeCluster } from '../../test/kube-cluster.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { KubernetesRuntimeDriver, type KubernetesDriverOptions } from './kubernetes-driver.js';
import { POD_PROJECT } from './kubernetes-pods.js';
import { CLOSED_IPV4, CLOSED_IPV6 } from './runtime-network.js';

const LIMITS = {
  BASIC: { cpu: 1, memoryMb: 1024 },
  ADVANCED: { cpu: 2, memoryMb: 2048 },
  GPU: { cpu: 4, memoryMb: 4096 },
};
const UID_BASE = 232_000;
const REPO = path.resolve(import.meta.dirname, '../../../..');
const silent = { info: () => undefined, warn: () => undefined };

function options(cluster: KubeCluster | null, rootDir: string, extra: Partial<KubernetesDriverOptions> = {}) {
  return {
    kubeConfig: cluster?.kubeConfig() ?? new KubeCluster({}).kubeConfig(),
    namespace: 'aiedu',
    image: 'registry.example/aiedu-runtime:1',
    workspaceClaim: 'workspaces',
    rootDir,
    uidBase: UID_BASE,
    limits: LIMITS,
    gpuResource: 'nvidia.com/gpu',
    startTimeoutMs: 60_000,
    pipIndexUrl: 'https://pypi.school.example/simple',
    holder: 'this-process',
    holderAlive: async (holder: string) => holder === 'another-live-process',
    log: silent,
    ...extra,
  } satisfies KubernetesDriverOptions;
}

describe('a runtime pod', () => {
  const rootDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-k8s-spec-'));
  afterAll(() => rmSync(rootDir, { recursive: true, force: true }));
  const driver = new KubernetesRuntimeDriver(options(null, rootDir));
  const project = { id: '0190a0b2-7c1e-7d4f-8a9b-0c1d2e3f4a5b', seq: 7 };

  it('runs as the project, with its type’s resources, its own folder of the claim and nothing of the platform', () => {
    const pod = driver.podSpec(project, 'GPU', 'rt', 'secret-token');
    expect(pod.metadata!.name).toBe(`aiedu-rt-${project.id}`);
    expect(pod.metadata!.labels).toMatchObject({ 'aiedu/project': project.id, 'aiedu/holder': 'this-process' });
    const spec = pod.spec!;
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(spec.enableServiceLinks).toBe(false);
    expect(spec.restartPolicy).toBe('Never');
    const uid = process.getuid?.() === 0 ? UID_BASE + 7 : process.getuid?.();
    expect(spec.securityContext).toMatchObject({ runAsUser: uid, runAsNonRoot: true });
    const container = spec.containers[0]!;
    expect(container.image).toBe('registry.example/aiedu-runtime:1');
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(container.resources).toEqual({
      requests: { cpu: '1000m', memory: '4096Mi', 'nvidia.com/gpu': '1' },
      limits: { cpu: '4000m', memory: '4096Mi', 'nvidia.com/gpu': '1' },
    });
    expect(container.volumeMounts).toContainEqual({ name: 'project', mountPath: POD_PROJECT, subPath: project.id });
    expect(spec.volumes).toContainEqual({ name: 'project', persistentVolumeClaim: { claimName: 'workspaces' } });
    const env = Object.fromEntries((container.env ?? []).map((v) => [v.name, v.value]));
    expect(env).toMatchObject({
      VIRTUAL_ENV: `${POD_PROJECT}/venv`,
      PIP_INDEX_URL: 'https://pypi.school.example/simple',
    });
    expect(env.JUPYTER_TOKEN).toBe('secret-token');
    // None of the server's own settings or secrets.
    expect(Object.keys(env).filter((k) => /DATABASE|JWT|SECRET|S3_|REDIS/.test(k))).toEqual([]);
  });

  it("mounts the project's datasets read-only, from their copies on the claim, where a local runtime links them", () => {
    const versionId = '0190a0b2-7c1e-7d4f-8a9b-dddddddddddd';
    const withData = { ...project, datasets: [{ mountName: 'iris', versionId }] };
    const mounts = driver.podSpec(withData, 'BASIC', 'rt', 't').spec!.containers[0]!.volumeMounts!;
    expect(mounts).toContainEqual({
      name: 'project',
      mountPath: `${POD_PROJECT}/workspace/datasets/iris`,
      subPath: `datasets/${versionId}`,
      readOnly: true,
    });
    // The copies are where the driver's cache keeps them: `datasets/<version>` of the claim's root.
    expect(driver.datasets.versionDir(versionId)).toBe(path.join(rootDir, 'datasets', versionId));
    // Every mount of the claim but the project's own is read-only; a task pod (package commands) mounts none.
    expect(mounts.filter((m) => m.name === 'project' && m.subPath !== project.id).every((m) => m.readOnly)).toBe(true);
    const task = driver.podSpec(withData, 'BASIC', 'task', '').spec!.containers[0]!.volumeMounts!;
    expect(task.filter((m) => m.mountPath.includes('/datasets/'))).toEqual([]);
  });

  it('asks no GPU of the other types and carries no token in a task pod', () => {
    const task = driver.podSpec(project, 'BASIC', 'task', '');
    expect(task.metadata!.name).toMatch(new RegExp(`^aiedu-task-${project.id.slice(0, 40)}.*-[0-9a-f]{6}$`));
    expect(task.metadata!.name!.length).toBeLessThanOrEqual(63);
    const container = task.spec!.containers[0]!;
    expect(container.resources!.limits).toEqual({ cpu: '1000m', memory: '1024Mi' });
    expect(container.env!.map((v) => v.name)).not.toContain('JUPYTER_TOKEN');
    expect(container.ports).toEqual([]);
  });
});

describe.skipIf(JUPYTER_MISSING || KUBELET_MISSING)('runtimes as pods of a Kubernetes cluster', () => {
  let cluster: KubeCluster;
  let rootDir: string;
  let driver: KubernetesRuntimeDriver;
  const exits: string[] = [];
  const project = { id: '0190a0b2-7c1e-7d4f-8a9b-aaaaaaaaaaaa', seq: 11 };
  const podsOf = (id: string) => podsOfProject(cluster, id);

  beforeAll(async () => {
    rootDir = mkdtempSync(path.join(os.tmpdir(), 'aiedu-k8s-'));
    cluster = await new KubeCluster({ workspaces: rootDir }).start();
    driver = new KubernetesRuntimeDriver(options(cluster, rootDir));
    driver.onExit((id) => void exits.push(id));
    await driver.open();
  });
  afterAll(async () => {
    await driver?.stopAll();
    await cluster?.close();
    rmSync(rootDir, { recursive: true, force: true });
  });

  it('starts a pod on the project’s workspace, as its user, in its virtual environment', async () => {
    const workspace = driver.ensureWorkspace(project);
    writeFileSync(path.join(workspace, 'hello.txt'), 'from the file tree');
    driver.claim(project, path.join(workspace, 'hello.txt'));
    const endpoint = await driver.start(project, 'BASIC');
    expect(new URL(endpoint.baseUrl).hostname).toBe(cluster.pods.get(`aiedu-rt-${project.id}`)!.pod.status!.podIP);
    expect(driver.status(project.id)).toBe('RUNNING');
    // The pod gets the ConfigMap of the platform's Jupyter files.
    expect([...cluster.configMaps.keys()]).toEqual([expect.stringMatching(/^aiedu-runtime-[0-9a-f]{10}$/)]);
    // The token in the pod's definition, which whoever may read pods reads, opened the server only until its bind.
    const defined = cluster.pods
      .get(`aiedu-rt-${project.id}`)!
      .pod.spec!.containers[0]!.env!.find((v) => v.name === 'JUPYTER_TOKEN')!.value!;
    expect(defined).not.toBe(endpoint.token);
    const withDefined = { authorization: `token ${defined}` };
    expect((await fetch(`${endpoint.baseUrl}/api/contents`, { headers: withDefined })).status).toBe(403);

    const headers = { authorization: `token ${endpoint.token}` };
    const contents = (await (await fetch(`${endpoint.baseUrl}/api/contents`, { headers })).json()) as {
      content: { name: string }[];
    };
    expect(contents.content.map((c) => c.name)).toEqual(['hello.txt']);
    const kernel = (await (
      await fetch(`${endpoint.baseUrl}/api/kernels`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'python3' }),
      })
    ).json()) as { id: string };
    const channel = await KernelChannel.open(
      `${endpoint.baseUrl.replace('http', 'ws')}/api/kernels/${kernel.id}/channels?token=${endpoint.token}`,
    );
    const outputs = await channel.execute(
      "import os, sys\nprint(os.getuid())\nprint(sys.prefix)\nprint(open('hello.txt').read())\nopen('made-in-pod.txt', 'w').write('42')",
    );
    channel.close();
    expect(stdoutOf(outputs).trim().split('\n')).toEqual([
      String(UID_BASE + project.seq),
      `${POD_PROJECT}/venv`,
      'from the file tree',
    ]);
    // What the kernel writes is in the workspace the platform reads, owned by the project's user.
    const made = path.join(workspace, 'made-in-pod.txt');
    expect(readFileSync(made, 'utf8')).toBe('42');
    expect(statSync(made).uid).toBe(UID_BASE + project.seq);
    expect(existsSync(path.join(rootDir, project.id, 'venv', 'bin', 'python'))).toBe(true);
  }, 90_000);

  it('runs package commands in the running pod, with their output and exit code', async () => {
    const execs = cluster.calls.filter((c) => c.startsWith('EXEC')).length;
    const ok = await driver.exec(project, ['-c', 'import sys; print(sys.prefix); sys.stderr.write("note")']);
    expect(ok).toEqual({ code: 0, stdout: `${POD_PROJECT}/venv\n`, stderr: 'note' });
    const failed = await driver.exec(project, ['-c', 'import sys; sys.exit(3)']);
    expect(failed.code).toBe(3);
    const timedOut = await driver.exec(project, ['-c', 'import time; time.sleep(30)'], { timeoutMs: 1000 });
    expect(timedOut.code).toBe(137);
    expect(cluster.calls.filter((c) => c.startsWith(`EXEC /api/v1/namespaces/aiedu/pods/aiedu-rt-`))).toHaveLength(
      execs + 3,
    );
    expect(podsOf(project.id)).toHaveLength(1);
  }, 60_000);

  it('reports a pod that dies by itself as the runtime’s crash, and a stop as none', async () => {
    cluster.kill(`aiedu-rt-${project.id}`);
    await waitFor(() => exits.includes(project.id));
    expect(driver.status(project.id)).toBe('STOPPED');
    await waitFor(() => podsOf(project.id).length === 0);

    await driver.start(project, 'BASIC');
    await driver.stop(project.id);
    expect(podsOf(project.id)).toEqual([]);
    expect(exits).toEqual([project.id]);
  }, 90_000);

  it('reports a pod deleted while its watch was being renewed', async () => {
    await driver.start(project, 'BASIC');
    expect(cluster.endWatches()).toBe(1);
    cluster.delete(`aiedu-rt-${project.id}`);
    await waitFor(() => exits.length === 2);
    expect(exits).toEqual([project.id, project.id]);
    expect(driver.status(project.id)).toBe('STOPPED');
    // The renewed watch reports what comes after.
    await waitFor(() => cluster.watching() === 1);
    await driver.start(project, 'BASIC');
    cluster.kill(`aiedu-rt-${project.id}`);
    await waitFor(() => exits.length === 3);
    await waitFor(() => podsOf(project.id).length === 0);
  }, 90_000);

  it('runs a package command of a stopped project in a task pod that goes after it', async () => {
    const result = await driver.exec(project, ['-c', 'import os; print(os.getcwd())']);
    expect(result).toMatchObject({ code: 0, stdout: `${POD_PROJECT}/workspace\n` });
    expect(cluster.calls.filter((c) => /^EXEC .*\/pods\/aiedu-task-/.test(c))).toHaveLength(1);
    await waitFor(() => podsOf(project.id).length === 0);
  }, 60_000);

  it('deletes the pods of processes that are gone, and keeps those of live ones', async () => {
    const dead = driver.podSpec({ id: '0190a0b2-7c1e-7d4f-8a9b-bbbbbbbbbbbb', seq: 12 }, 'BASIC', 'task', '');
    dead.metadata!.labels!['aiedu/holder'] = 'a-process-that-died';
    const live = driver.podSpec({ id: '0190a0b2-7c1e-7d4f-8a9b-cccccccccccc', seq: 13 }, 'BASIC', 'task', '');
    live.metadata!.labels!['aiedu/holder'] = 'another-live-process';
    const core = cluster.kubeConfig().makeApiClient((await import('@kubernetes/client-node')).CoreV1Api);
    for (const body of [dead, live]) await core.createNamespacedPod({ namespace: 'aiedu', body });
    await driver.sweep();
    await waitFor(() => !cluster.pods.has(dead.metadata!.name!));
    expect(cluster.pods.has(live.metadata!.name!)).toBe(true);
    await core.deleteNamespacedPod({ namespace: 'aiedu', name: live.metadata!.name! });
  }, 60_000);

  it('answers CONTAINER_START_FAILED for an image that cannot be pulled, and leaves no pod', async () => {
    const broken = new KubernetesRuntimeDriver(options(cluster, rootDir, { image: 'registry.invalid/missing:1' }));
    const other = { id: '0190a0b2-7c1e-7d4f-8a9b-dddddddddddd', seq: 14 };
    await expect(broken.start(other, 'BASIC')).rejects.toThrow('CONTAINER_START_FAILED');
    await waitFor(() => podsOf(other.id).length === 0);
    expect(broken.status(other.id)).toBe('STOPPED');
  }, 30_000);

  it('is refused by the cluster without its token, as a caller that knocks on every port would be', async () => {
    // Another test's process reads every port of the machine; its knocks must not count as the driver's access.
    const server = cluster.kubeConfig().getCurrentCluster()!.server;
    const knock = await fetch(`${server}/api/status`);
    expect(knock.status).toBe(401);
    expect(cluster.calls).not.toContain('GET /api/status');
  });

  it('needs no permission the deployment’s Role does not grant', () => {
    const manifest = loadAllYaml(readFileSync(path.join(REPO, 'deploy/kubernetes/aiedu.yaml'), 'utf8')) as {
      kind: string;
      rules?: { resources: string[]; verbs: string[] }[];
    }[];
    const granted = new Set(
      manifest
        .filter((o) => o.kind === 'Role')
        .flatMap((o) => o.rules!.flatMap((rule) => rule.resources.flatMap((r) => rule.verbs.map((v) => `${v} ${r}`)))),
    );
    expect([...cluster.access].sort()).toEqual(
      expect.arrayContaining(['create pods', 'create pods/exec', 'delete pods', 'get pods/log', 'watch pods']),
    );
    expect([...cluster.access].filter((needed) => !granted.has(needed))).toEqual([]);
  });
});

describe.skipIf(JUPYTER_MISSING || KUBELET_MISSING)('the platform with RUNTIME_DRIVER=kubernetes', () => {
  let cluster: KubeCluster;
  let t: TestApp;
  let base: string;
  let token: string;
  let projectId: string;
  const claims: Record<string, string> = {};
  const previousKubeconfig = process.env.KUBECONFIG;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': token } });

  beforeAll(async () => {
    cluster = await new KubeCluster(claims).start();
    // As a deployment outside the cluster would: a kubeconfig file named by KUBECONFIG.
    const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'aiedu-kubeconfig-')), 'config');
    writeFileSync(kubeconfig, cluster.kubeConfig().exportConfig());
    process.env.KUBECONFIG = kubeconfig;
    const env = {
      DATA_DIR: '/unused',
      RUNTIME_DRIVER: 'kubernetes',
      K8S_RUNTIME_IMAGE: 'registry.example/aiedu-runtime:1',
      K8S_WORKSPACE_CLAIM: 'workspaces',
    };
    t = await createTestApp({ config: { kubernetes: loadConfig(env).kubernetes, runtimeDriver: 'kubernetes' } });
    claims.workspaces = path.join(t.dataDir, 'runtime');
    const school = await buildCustomer(t.database.db);
    const user = await buildUser(t.database.db, { customerId: school.id, username: 'kid', roles: [ROLES.student] });
    token = await signIn(t.app, school.code, 'kid', user.password);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    projectId = (await call('POST', '/gw/api/v1/projects', { name: 'Pods' })).json().data.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.close();
    if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previousKubeconfig;
  });

  it('starts a student’s runtime as a pod, reached through the gateway, and stops it', async () => {
    const started = await call('POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
    expect(started.json()).toMatchObject({ errorCode: '1000', data: { state: 'RUNNING' } });
    expect(podsOfProject(cluster, projectId).map((r) => r.pod.metadata!.namespace)).toEqual(['aiedu']);

    const proxy = `/gw/api/v1/runtime/${projectId}`;
    const kernel = await call('POST', `${proxy}/api/kernels`, { name: 'python3' });
    expect(kernel.statusCode).toBe(201);
    const channel = await KernelChannel.open(
      `${base.replace('http', 'ws')}${proxy}/api/kernels/${kernel.json().id}/channels?token=${encodeURIComponent(token)}`,
    );
    const outputs = await channel.execute("import numpy as np\nopen('sum.txt', 'w').write(str(np.arange(5).sum()))");
    channel.close();
    expect(outputs.filter((o) => o.msgType === 'error')).toEqual([]);
    // The platform reads what the pod wrote: the workspace is the claim's folder of the project.
    const saved = await call('GET', `/gw/api/v1/projects/${projectId}/files/content?path=sum.txt`);
    expect(JSON.stringify(saved.json())).toContain('10');
    // Package lists run in the project's pod.
    const packages = await call('GET', `/gw/api/v1/projects/${projectId}/packages`);
    expect(packages.json().data.map((p: { name: string }) => p.name.toLowerCase())).toContain('pip');

    const stopped = await call('POST', `/gw/api/v1/projects/${projectId}/runtime/stop`, {});
    expect(stopped.json()).toMatchObject({ errorCode: '1000' });
    expect(podsOfProject(cluster, projectId)).toEqual([]);
  }, 120_000);

  it('stops a pod that keeps writing to the claim once it is below the floor, and refuses starts', async () => {
    const driver = t.app.runtimes.driver;
    expect(await driver.writtenBytes!(projectId)).toBeNull();
    await call('POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
    const proxy = `/gw/api/v1/runtime/${projectId}`;
    const kernel = await call('POST', `${proxy}/api/kernels`, { name: 'python3' });
    const channel = await KernelChannel.open(
      `${base.replace('http', 'ws')}${proxy}/api/kernels/${kernel.json().id}/channels?token=${encodeURIComponent(token)}`,
    );
    expect(await driver.writtenBytes!(projectId)).toBeGreaterThan(0);
    // The claim is now below the floor, and a cell writes on (1 MiB at a time, for at most a minute or 2 GiB).
    const floor = t.config.minFreeDiskMb;
    t.config.minFreeDiskMb = 1_000_000_000;
    try {
      channel.send(
        [
          'import time',
          't0 = time.time()',
          "with open('filling.bin', 'wb') as f:",
          '    for _ in range(2048):',
          "        f.write(b'0' * 2**20); f.flush()",
          '        if time.time() - t0 > 60: break',
          '        time.sleep(0.01)',
        ].join('\n'),
      );
      const runtime = async () => (await call('GET', `/gw/api/v1/projects/${projectId}/runtime`)).json().data;
      await waitFor(async () => (await runtime()).state === 'STOPPED', 60_000);
      expect(await runtime()).toMatchObject({ state: 'STOPPED', stopReason: 'diskFull' });
      expect(podsOfProject(cluster, projectId)).toEqual([]);
      const refused = await call('POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
      expect(refused.json()).toMatchObject({ errorCode: '2003', data: { disk: 'server' } });
    } finally {
      channel.close();
      t.config.minFreeDiskMb = floor;
    }
    // What the cell wrote stays on the claim for the student to delete.
    const files = (await call('GET', `/gw/api/v1/projects/${projectId}/files`)).json().data as { name: string }[];
    expect(files.map((f) => f.name)).toContain('filling.bin');
  }, 120_000);
});

function podsOfProject(cluster: KubeCluster, id: string) {
  return [...cluster.pods.values()].filter((r) => r.pod.metadata!.labels!['aiedu/project'] === id);
}

describe('the runtime pods’ NetworkPolicy', () => {
  it("keeps runtime pods off what the local driver's rules keep runtimes off", () => {
    type Peer = { ipBlock?: { cidr: string; except?: string[] }; podSelector?: object; namespaceSelector?: object };
    const policy = (
      loadAllYaml(readFileSync(path.join(REPO, 'deploy/kubernetes/aiedu.yaml'), 'utf8')) as {
        kind: string;
        metadata: { name: string };
        // The client's loader names `from` `_from` (a reserved word in its models).
        spec: { ingress: { _from: Peer[] }[]; egress: { to: Peer[]; ports?: { port: number }[] }[] };
      }[]
    ).find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'aiedu-runtimes')!;
    expect(policy.spec.ingress.flatMap((rule) => rule._from)).toEqual([
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'aiedu-server' } } },
    ]);
    const blocks = policy.spec.egress
      .flatMap((rule) => rule.to)
      .flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : []));
    expect(blocks).toEqual([
      { cidr: '0.0.0.0/0', except: CLOSED_IPV4 },
      { cidr: '::/0', except: CLOSED_IPV6 },
    ]);
    // DNS goes to the cluster's resolver only, not to port 53 anywhere.
    const dns = policy.spec.egress.find((rule) => rule.ports?.some((p) => p.port === 53))!;
    expect(dns.to).toHaveLength(1);
    expect(dns.to[0]).toMatchObject({ podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } });
  });
});
