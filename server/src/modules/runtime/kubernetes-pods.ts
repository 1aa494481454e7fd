import { randomBytes } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerType } from '@aiedu/contracts';
import { DATASET_MOUNT_FOLDER } from '@aiedu/contracts';
import type { RuntimeLimits } from '../../config.js';
import type { DatasetMount } from './dataset-mounts.js';
import { JUPYTER_CONFIG, KERNEL_LAUNCHER, KERNEL_SPEC, SERVER_LAUNCHER, TERMINAL_RC } from './jupyter-config.js';
import { projectEnvironment } from './jupyter-server.js';
import type { RuntimeProject } from './runtime-driver.js';

/** Where a runtime pod sees things: its project's folder (workspace, venv, home), our Jupyter files, its own. */
export const POD_PROJECT = '/srv/project';
export const POD_CONFIG = '/srv/aiedu';
export const POD_SERVER = '/srv/jupyter';
export const PORT = 8888;
export const CONTAINER = 'jupyter';

/** Pod names are DNS labels: lower case, at most 63 characters. */
export const podName = (kind: 'rt' | 'task', projectId: string) =>
  `aiedu-${kind}-${projectId.toLowerCase().replace(/[^a-z0-9-]/g, '')}`.slice(0, kind === 'rt' ? 63 : 56);

/**
 * A runtime pod's datasets: each version's copy on the workspace claim (`datasets/<versionId>`, beside the projects'
 * folders) mounted read-only at `datasets/<mountName>` of the workspace, where a local runtime finds its link.
 */
export function datasetVolumeMounts(datasets: readonly DatasetMount[]) {
  return datasets.map((d) => ({
    name: 'project',
    mountPath: `${POD_PROJECT}/workspace/${DATASET_MOUNT_FOLDER}/${d.mountName}`,
    subPath: `${DATASET_MOUNT_FOLDER}/${d.versionId}`,
    readOnly: true,
  }));
}

/** The script a runtime or task pod starts with: the project's virtual environment is made on first use. */
export const PREPARE = [
  `mkdir -p "$HOME" "$JUPYTER_RUNTIME_DIR"`,
  `[ -x "$VIRTUAL_ENV/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$VIRTUAL_ENV" || exit 70`,
].join(' && ');

/** The platform's Jupyter files, as the ConfigMap every runtime pod mounts holds them. */
export const RUNTIME_CONFIG_FILES: Record<string, string> = {
  'jupyter_server_config.py': JUPYTER_CONFIG,
  'jupyter_server_launch.py': SERVER_LAUNCHER,
  'kernel.json': JSON.stringify(KERNEL_SPEC, null, 1),
  'launch.py': KERNEL_LAUNCHER,
  bashrc: TERMINAL_RC,
};

/** The project's environment, as its pod's processes see it. */
export function podEnvironment(limits: RuntimeLimits, pipIndexUrl: string | undefined): Record<string, string> {
  return {
    ...projectEnvironment({
      home: `${POD_PROJECT}/home`,
      venv: `${POD_PROJECT}/venv`,
      jupyterPath: `${POD_CONFIG}/jupyter`,
      runtimeDir: `${POD_SERVER}/runtime`,
      limits,
      pipIndexUrl,
    }),
    JUPYTER_CONFIG_DIR: `${POD_SERVER}/config`,
  };
}

export interface RuntimePodInput {
  project: RuntimeProject;
  runtimeType: ContainerType;
  /** `rt`: the project's Jupyter server; `task`: a pod that waits for package commands. */
  kind: 'rt' | 'task';
  token: string;
  identity: { uid: number; gid: number };
  env: Record<string, string>;
  configMap: string;
  holder: string;
  image: string;
  workspaceClaim: string;
  gpuResource: string;
  limits: Record<ContainerType, RuntimeLimits>;
}

/**
 * A pod of a project: as the project's user, non-root, no privilege escalation, no capabilities, no service-account
 * token; the runtime type's CPU and memory; its own folder of the workspace claim, the ConfigMap, an emptyDir.
 */
export function runtimePod(input: RuntimePodInput): V1Pod {
  const { project, runtimeType, kind, token } = input;
  const limits = input.limits[runtimeType];
  const id = input.identity;
  const name =
    kind === 'rt' ? podName('rt', project.id) : `${podName('task', project.id)}-${randomBytes(3).toString('hex')}`;
  const gpu = runtimeType === 'GPU' && input.gpuResource ? { [input.gpuResource]: '1' } : {};
  const env = { ...input.env, ...(kind === 'rt' ? { JUPYTER_TOKEN: token } : {}) };
  const serve = [
    'exec /usr/bin/python3',
    `${POD_CONFIG}/jupyter_server_launch.py`,
    `--config=${POD_CONFIG}/jupyter_server_config.py`,
    `--ServerApp.ip="$POD_IP"`,
    `--ServerApp.port=${PORT}`,
    `--ServerApp.root_dir=${POD_SERVER}`,
  ].join(' ');
  return {
    metadata: {
      name,
      labels: {
        'app.kubernetes.io/name': 'aiedu-runtime',
        'app.kubernetes.io/managed-by': 'aiedu',
        'aiedu/project': project.id,
        'aiedu/holder': input.holder,
        'aiedu/kind': kind,
        'aiedu/runtime-type': runtimeType.toLowerCase(),
      },
    },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 10,
      securityContext: {
        runAsUser: id.uid,
        runAsGroup: id.gid,
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: CONTAINER,
          image: input.image,
          command: ['/bin/sh', '-c', `${PREPARE} && ${kind === 'rt' ? serve : 'exec sleep 86400'}`],
          workingDir: `${POD_PROJECT}/workspace`,
          env: [
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            ...Object.entries(env).map(([key, value]) => ({ name: key, value })),
          ],
          ports: kind === 'rt' ? [{ name: 'jupyter', containerPort: PORT }] : [],
          resources: {
            // Memory is not shared out: what a runtime may use is what it is given. CPU waits its turn.
            requests: {
              cpu: `${Math.max(50, Math.round(limits.cpu * 250))}m`,
              memory: `${limits.memoryMb}Mi`,
              ...gpu,
            },
            limits: { cpu: `${Math.round(limits.cpu * 1000)}m`, memory: `${limits.memoryMb}Mi`, ...gpu },
          },
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          volumeMounts: [
            { name: 'project', mountPath: POD_PROJECT, subPath: project.id },
            { name: 'aiedu', mountPath: POD_CONFIG, readOnly: true },
            { name: 'server', mountPath: POD_SERVER },
            ...(kind === 'rt' ? datasetVolumeMounts(project.datasets ?? []) : []),
          ],
        },
      ],
      volumes: [
        { name: 'project', persistentVolumeClaim: { claimName: input.workspaceClaim } },
        {
          name: 'aiedu',
          configMap: {
            name: input.configMap,
            items: [
              { key: 'jupyter_server_config.py', path: 'jupyter_server_config.py' },
              { key: 'jupyter_server_launch.py', path: 'jupyter_server_launch.py' },
              { key: 'kernel.json', path: 'jupyter/kernels/python3/kernel.json' },
              { key: 'launch.py', path: 'jupyter/kernels/python3/launch.py' },
            ],
          },
        },
        { name: 'server', emptyDir: {} },
      ],
    },
  };
}
