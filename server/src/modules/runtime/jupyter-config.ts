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
 *   safe to start as root. A second bind is refused.
 */
export const JUPYTER_CONFIG = `# Written by the platform at start; do not edit.
import json, os, signal, threading, time

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
        if uid is not None and os.getuid() == 0:
            _give(spec['slot_dir'], uid, gid)
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
        connections = env['JUPYTER_RUNTIME_DIR']
        os.makedirs(connections, mode=0o700, exist_ok=True)
        app.kernel_manager.connection_dir = connections
        _bound['done'] = True
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
# Started as root only to drop to the project's user at bind; nothing runs before that.
c.ServerApp.allow_root = True
c.ServerApp.allow_origin = '*'
c.ServerApp.disable_check_xsrf = True
c.ServerApp.terminals_enabled = True
c.ServerApp.port_retries = 0
c.ServerApp.shutdown_no_activity_timeout = 0
c.FileContentsManager.delete_to_trash = False
c.ContentsManager.allow_hidden = False
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
    'exec "$VIRTUAL_ENV/bin/python" -m ipykernel_launcher -f "$1"',
    'kernel',
    '{connection_file}',
  ],
  display_name: 'Python 3',
  language: 'python',
  metadata: { debugger: true },
};
