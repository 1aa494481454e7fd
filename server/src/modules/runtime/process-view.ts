import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const UNSHARE = '/usr/bin/unshare';

/**
 * Run in a mount namespace of its own whose `/proc` is mounted with `hidepid=2`: once a runtime has dropped to its
 * project's user, `ps` and `/proc` show it only that user's processes, not the command lines and environments of
 * other projects' runtimes or of the server. Mounts of the machine (a dataset mounted later, say) still reach it.
 */
const HIDE_SCRIPT = 'mount -t proc -o hidepid=2,nosuid,nodev,noexec proc /proc && exec "$@"';

export function hidingCommand(command: string[]): string[] {
  return [UNSHARE, '--mount', '--propagation', 'slave', '--', '/bin/sh', '-c', HIDE_SCRIPT, 'sh', ...command];
}

const SETPRIV = '/usr/bin/setpriv';

/**
 * `command` as `identity` (a project's user) in a mount namespace of its own whose `/proc` shows only that user's
 * processes: the namespace is made as root, then the command drops to the user for good.
 */
export function hidingCommandAs(identity: { uid: number; gid: number }, command: string[]): string[] {
  return hidingCommand([
    SETPRIV,
    `--reuid=${identity.uid}`,
    `--regid=${identity.gid}`,
    '--clear-groups',
    '--',
    ...command,
  ]);
}

/** Whether this process may start runtimes that see only their own processes (root, with mount namespaces). */
export function canHideProcesses(): boolean {
  if (process.getuid?.() !== 0 || !existsSync(UNSHARE) || !existsSync(SETPRIV)) return false;
  const [command, ...args] = hidingCommandAs({ uid: 65534, gid: 65534 }, ['/bin/true']);
  return spawnSync(command!, args, { stdio: 'ignore', timeout: 10_000 }).status === 0;
}
