import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesOptions } from '../../config.js';
import { KubernetesRuntimeDriver, type KubernetesDriverOptions } from './kubernetes-driver.js';

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * The cluster this process talks to: its service account inside a cluster, else `KUBECONFIG` or `~/.kube/config`.
 * Without any of them the start stops here, rather than at the first student's start.
 */
export function loadKubeConfig(): KubeConfig {
  const inCluster = Boolean(process.env.KUBERNETES_SERVICE_HOST);
  const file = process.env.KUBECONFIG ?? path.join(os.homedir(), '.kube', 'config');
  if (!inCluster && !existsSync(file.split(path.delimiter)[0]!)) {
    throw new Error(
      'RUNTIME_DRIVER=kubernetes needs a cluster: run the server in one (its service account), or set KUBECONFIG',
    );
  }
  const config = new KubeConfig();
  config.loadFromDefault();
  return config;
}

/** `K8S_NAMESPACE`, else the service account's namespace, else the kubeconfig context's, else `default`. */
export function runtimeNamespace(config: KubeConfig, configured: string | undefined): string {
  if (configured) return configured;
  if (existsSync(SERVICE_ACCOUNT_NAMESPACE)) return readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim();
  return config.getContextObject(config.getCurrentContext())?.namespace ?? 'default';
}

export function createKubernetesDriver(
  options: KubernetesOptions,
  rest: Omit<
    KubernetesDriverOptions,
    'kubeConfig' | 'namespace' | 'image' | 'workspaceClaim' | 'gpuResource' | 'startTimeoutMs'
  >,
  kubeConfig = loadKubeConfig(),
): KubernetesRuntimeDriver {
  return new KubernetesRuntimeDriver({
    ...rest,
    kubeConfig,
    namespace: runtimeNamespace(kubeConfig, options.namespace),
    image: options.image,
    workspaceClaim: options.workspaceClaim,
    gpuResource: options.gpuResource,
    startTimeoutMs: options.startTimeoutMs,
  });
}
