/**
 * The Jupyter server configuration every runtime loads.
 *
 * - TCP_NODELAY for kernel and terminal websockets: without it Nagle's algorithm adds ~40 ms to every message
 *   (measured 48 ms → 9 ms round trip).
 * - The runtime stops when the platform's process is gone (killed without a chance to stop its runtimes), so no
 *   Jupyter server outlives it.
 * - A server starts **unbound**: it answers only `/api/status` and `POST /aiedu/bind` (with its token) until the
 *   platform binds it to one project. Binding sets the root directory (contents, kernels, terminals, checkpoints)
 *   to the project's workspace, replaces the process environment with the project's, hands the slot's own files
 *   to the project's user and then drops to that user for good (`setresuid`, no supplementary groups). Nothing
 *   of a project (kernel, terminal, file) can exist before the drop, so pre-started servers of the warm pool are
 *   safe to start as root. A second bind is refused, and so is a bind of a root server without a project user.
 * - The token comes in the environment (never on the command line, which any user can list) and leaves it at once;
 *   the bind replaces it with a new one, so the token a server started with opens nothing once it serves a project.
 * - Kernels use the `ipc` transport (Unix sockets in the bound project's connection folder, its user's alone):
 *   a project's processes may reach no address of this machine, loopback included (runtime-network.ts).
 */
export const JUPYTER_CONFIG = `# Written by the platform at start; do not edit.
import json, os, shutil, signal, sys, threading, time

from tornado import web
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.serverapp import ServerApp
from jupyter_server.utils import url_path_join


def _nodelay(cls):
    original = cls.open
    def open(self, *args, **kwargs):
        try:
            self.set_nodelay(True)
        except Exception:
            pass
        return original(self, *args, **kwargs)
    cls.open = open

from jupyter_server.services.kernels.handlers import ZMQChannelsHandler
_nodelay(ZMQChannelsHandler)
try:
    from terminado.websocket import TermSocket
    _nodelay(TermSocket)
except Exception:
    pass

_parent = os.getppid()
def _watch_parent():
    while True:
        time.sleep(2)
        if os.getppid() != _parent:
            os.kill(os.getpid(), signal.SIGTERM)
            return
threading.Thread(target=_watch_parent, daemon=True).start()

_bound = {'done': False}

# The platform gives the token in the environment, never on the command line, which every user of the machine can
# list. It leaves the environment here, so no child (the kernel started ahead, a terminal) inherits it; the bind
# replaces it with a new one.
_token = os.environ.pop('JUPYTER_TOKEN', '')
if len(_token) < 32:
    sys.exit('JUPYTER_TOKEN is missing')


def _become(uid, gid):
    # The process stays undumpable after the change: the project's kernels cannot trace what it did as root.
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)


# A kernel started ahead: a Python process that has done a kernel's imports (then writes the file
# $JUPYTER_RUNTIME_DIR/kernel-ahead, which the platform waits for). At the bind it drops to the project's user;
# the first kernel the project starts is handed to it (connection file, directory, environment): it takes the
# project's environment and virtual environment, and runs ipykernel.
_KERNEL_AHEAD = r'''
import ctypes, json, os, sys
sys.path = [p for p in sys.path if p not in ('', os.getcwd())]
marker = os.path.join(os.environ['JUPYTER_RUNTIME_DIR'], 'kernel-ahead')
try:
    # As the kernel launcher does: ipykernel without its debugger.
    sys.modules['debugpy.server'] = None
    from ipykernel import kernelapp, ipkernel, zmqshell  # noqa: F401
    del sys.modules['debugpy.server']
except Exception:
    open(marker, 'w').write('failed')
    sys.exit(1)
open(marker, 'w').write('ready')
# First line, written by the server while it is still root, at the bind: whose kernel this will be.
line = sys.stdin.readline()
if not line:
    sys.exit(0)
identity = json.loads(line)
# What the project's code creates is its own: /tmp is shared by every project on the machine.
os.umask(0o077)
if os.getuid() == 0:
    for tid in os.listdir('/proc/self/task'):
        try:
            os.setpriority(os.PRIO_PROCESS, int(tid), 0)
        except OSError:
            pass
    if identity['uid'] is not None:
        os.setgroups([])
        os.setresgid(identity['gid'], identity['gid'], identity['gid'])
        os.setresuid(identity['uid'], identity['uid'], identity['uid'])
        # A kernel is its user's own process, as an exec'd one would be.
        ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE
# Second line, written by the bound server (the project's user by now): the kernel to run.
line = sys.stdin.readline()
if not line:
    sys.exit(0)
spec = json.loads(line)
os.chdir(spec['cwd'])
os.environ.clear()
os.environ.update(spec['env'])
venv = os.environ.get('VIRTUAL_ENV')
if venv:
    import site
    before = list(sys.path)
    site.addsitedir(os.path.join(venv, 'lib', 'python%d.%d' % sys.version_info[:2], 'site-packages'))
    added = [p for p in sys.path if p not in before]
    system = next((i for i, p in enumerate(before) if p.endswith(('site-packages', 'dist-packages'))), len(before))
    sys.path = before[:system] + added + before[system:]
    sys.prefix = sys.exec_prefix = venv
    sys.executable = os.path.join(venv, 'bin', 'python')
sys.argv = [sys.executable, '-f', spec['connection_file']]
# ipykernel read JPY_PARENT_PID when it was imported, before this environment: the server it watches goes by option.
if os.environ.get('JPY_PARENT_PID'):
    sys.argv.append('--IPKernelApp.parent_handle=' + os.environ['JPY_PARENT_PID'])
kernelapp.launch_new_instance()
'''
_ahead = {'process': None}
try:
    import subprocess
    _ahead['process'] = subprocess.Popen(
        [sys.executable, '-c', _KERNEL_AHEAD], stdin=subprocess.PIPE, start_new_session=True
    )
except Exception:
    pass

import jupyter_client.provisioning.local_provisioner as _local_provisioner
_launch_kernel = _local_provisioner.launch_kernel
def _launch_kernel_ahead(cmd, **kwargs):
    process, _ahead['process'] = _ahead['process'], None
    ours = len(cmd) == 6 and cmd[0] == '/bin/sh' and cmd[5].endswith('/launch.py')
    if process is None or process.poll() is not None or not _bound['done'] or not ours:
        if process is not None and process.poll() is None:
            process.kill()
        return _launch_kernel(cmd, **kwargs)
    env = dict(kwargs.get('env') or os.environ)
    if not kwargs.get('independent'):
        # As launch_kernel does: the kernel watches this server and ends when it is gone (killed rather than
        # stopped, say), instead of running on with nobody to reach it.
        env['JPY_PARENT_PID'] = str(os.getpid())
    spec = {
        'connection_file': cmd[4],
        'cwd': kwargs.get('cwd') or os.getcwd(),
        'env': env,
    }
    process.stdin.write((json.dumps(spec) + '\\n').encode())
    process.stdin.flush()
    return process
_local_provisioner.launch_kernel = _launch_kernel_ahead


def _give(path, uid, gid):
    for folder, dirs, files in os.walk(path):
        os.lchown(folder, uid, gid)
        for name in dirs + files:
            os.lchown(os.path.join(folder, name), uid, gid)


class BindHandler(JupyterHandler):
    @web.authenticated
    def post(self):
        if _bound['done']:
            raise web.HTTPError(409, 'already bound')
        spec = json.loads(self.request.body)
        root = spec['root_dir']
        env = spec['env']
        uid, gid = spec.get('uid'), spec.get('gid')
        token = spec.get('token') or ''
        if len(token) < 32:
            raise web.HTTPError(400, 'a new token is required')
        if os.getuid() == 0 and (not uid or not gid):
            # A server started as root serves a project only as the project's own user, never as root.
            raise web.HTTPError(400, 'a project user is required')
        app = self.settings['serverapp']
        os.chdir(root)
        app.root_dir = root
        app.contents_manager.root_dir = root
        checkpoints = getattr(app.contents_manager, 'checkpoints', None)
        if checkpoints is not None and hasattr(checkpoints, 'root_dir'):
            checkpoints.root_dir = root
        app.kernel_manager.root_dir = root
        self.settings['server_root_dir'] = root
        terminals = self.settings.get('terminal_manager')
        if terminals is not None and terminals.extra_env:
            terminals.extra_env = {**terminals.extra_env, 'JUPYTER_SERVER_ROOT': root}
        os.environ.clear()
        os.environ.update(env)
        if os.getuid() == 0:
            # A warm-pool server waited at a lower priority; the project's kernels start at the normal one.
            for tid in os.listdir('/proc/self/task'):
                try:
                    os.setpriority(os.PRIO_PROCESS, int(tid), 0)
                except OSError:
                    pass
        ahead = _ahead['process']
        if ahead is not None and ahead.poll() is None:
            # The kernel started ahead takes its user now, from this process while it is root: what the server
            # sends it later, as the project's user, can no longer choose who the kernel runs as.
            try:
                ahead.stdin.write((json.dumps({'uid': uid, 'gid': gid}) + '\\n').encode())
                ahead.stdin.flush()
            except OSError:
                _ahead['process'] = None
        if uid is not None and os.getuid() == 0:
            _give(spec['slot_dir'], uid, gid)
            _become(uid, gid)
        # What the project's code creates is its own (files it puts in the machine's shared /tmp included), and its
        # temporary files go to a folder of its own, emptied at each start. Made as the project's user.
        os.umask(0o077)
        tmp = env.get('TMPDIR')
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp, mode=0o700, exist_ok=True)
        connections = env['JUPYTER_RUNTIME_DIR']
        os.makedirs(connections, mode=0o700, exist_ok=True)
        app.kernel_manager.connection_dir = connections
        _bound['done'] = True
        # From now on only the platform's new token opens this server: the one it started with is no secret to
        # whoever could read its environment or its pod's definition.
        app.token = token
        self.settings['token'] = token
        if getattr(app, 'identity_provider', None) is not None:
            app.identity_provider.token = token
        self.finish(json.dumps({'uid': os.getuid(), 'root_dir': os.getcwd()}))


_prepare = JupyterHandler.prepare
def _prepare_bound(self):
    if not _bound['done'] and not isinstance(self, BindHandler):
        if self.request.path != url_path_join(self.base_url, 'api/status'):
            raise web.HTTPError(403, 'runtime not bound to a project')
    return _prepare(self)
JupyterHandler.prepare = _prepare_bound

_init_webapp = ServerApp.init_webapp
def _init_webapp_with_bind(self):
    _init_webapp(self)
    self.web_app.add_handlers('.*$', [(url_path_join(self.base_url, 'aiedu/bind'), BindHandler)])
ServerApp.init_webapp = _init_webapp_with_bind

c = get_config()  # noqa: F821
c.ServerApp.open_browser = False
c.ServerApp.token = _token
# Started as root only to drop to the project's user at bind; nothing runs before that.
c.ServerApp.allow_root = True
c.ServerApp.allow_origin = '*'
c.ServerApp.disable_check_xsrf = True
c.ServerApp.terminals_enabled = True
# Terminals start bash with the platform's startup file (beside this one): the project's user has no entry in the
# machine's user list, so bash's own prompt would read "I have no name!".
c.ServerApp.terminado_settings = {
    'shell_command': ['/bin/bash', '--rcfile', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'bashrc'), '-i'],
}
c.ServerApp.port_retries = 0
c.ServerApp.shutdown_no_activity_timeout = 0
c.FileContentsManager.delete_to_trash = False
c.ContentsManager.allow_hidden = False
# Kernels and their server speak over Unix sockets in the project's own connection folder, never over loopback
# TCP: a project's processes reach no address of this machine (the platform's network rules), not even their own.
c.KernelManager.transport = 'ipc'
`;

/**
 * A terminal's startup file (`bashrc` beside the Jupyter config): the machine's and the project's own startup
 * files, then a prompt that names the project's user (`USER`, which has no entry in the machine's user list) and
 * the project instead of bash's "I have no name!".
 */
export const TERMINAL_RC = `# Written by the platform at start; do not edit.
[ -f /etc/bash.bashrc ] && . /etc/bash.bashrc
[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"
# Where the shell is: inside the project's files as "workspace/…", elsewhere the full path.
__aiedu_where() {
  if [ -n "$JUPYTER_SERVER_ROOT" ]; then
    case "$PWD" in "$JUPYTER_SERVER_ROOT" | "$JUPYTER_SERVER_ROOT"/*) echo "workspace\${PWD#"$JUPYTER_SERVER_ROOT"}"; return ;; esac
  fi
  echo "$PWD"
}
PS1='\\[\\e[1;32m\\]\${USER:-student}@\${AIEDU_PROJECT:-project}\\[\\e[0m\\]:\\[\\e[1;34m\\]$(__aiedu_where)\\[\\e[0m\\]\\$ '
`;

/**
 * How every runtime's Jupyter server starts (`python jupyter_server_launch.py`): as `python -m jupyter_server`
 * would, except that GObject is never loaded. send2trash loads it (about 5 MB a server) for a trash this platform
 * never uses: deletes are final (`FileContentsManager.delete_to_trash` is off).
 */
export const SERVER_LAUNCHER = `# Written by the platform at start; do not edit.
import os, sys
sys.path = [p for p in sys.path if p != os.path.dirname(os.path.abspath(__file__))]
sys.modules['gi'] = None
from jupyter_server.serverapp import launch_new_instance
launch_new_instance()
`;

/**
 * How every kernel starts (`launch.py` beside the kernel spec): as `python -m ipykernel_launcher` would, except
 * that ipykernel's debugger is not loaded. Its debugpy server costs about 11 MB a kernel and the editor has no
 * debugger. A notebook may still import debugpy itself.
 */
export const KERNEL_LAUNCHER = `# Written by the platform at start; do not edit.
import sys
# The script's folder (this kernel spec) is not the notebook's: IPython puts the working directory first.
del sys.path[0]
sys.modules['debugpy.server'] = None
from ipykernel import kernelapp
del sys.modules['debugpy.server']
kernelapp.launch_new_instance()
`;

/**
 * The kernel every runtime starts: the project's virtual environment's Python (`VIRTUAL_ENV` is the bound
 * project's), so packages installed into the project are importable in its notebooks. Debian's own kernel spec
 * names `/usr/bin/python3`, which would not see them.
 */
export const KERNEL_SPEC = {
  argv: [
    '/bin/sh',
    '-c',
    'exec "$VIRTUAL_ENV/bin/python" "$2" -f "$1"',
    'kernel',
    '{connection_file}',
    '{resource_dir}/launch.py',
  ],
  display_name: 'Python 3',
  language: 'python',
  metadata: { debugger: false },
};
