"""An experiment's automatic check, run as the project's own user in its sandbox (never in the API process).

Reads one JSON request on standard input:
  {"nonce": str, "notebook": str (the notebook's JSON), "tests": [{"name": str, "code": str}],
   "timeoutSeconds": int, "memoryBytes": int}
starts a fresh kernel of the project's Python (its virtual environment), executes the notebook's code cells top to
bottom (a cell that raises does not stop the run, as nbgrader's "allow errors"), then each test's code in the same
kernel state. Writes one line to standard output:
  @@check <nonce> {"cells": int, "cellError": str, "tests": [{"passed": bool, "error": str}], "reason": null |
                   "timeout" | "crashed" | "memory" | "notebook", "detail": str}
The kernel's own standard output goes nowhere, and the nonce (which only this process knows) marks the one line the
server takes: nothing the notebook prints can pass for a result.
"""

import json
import os
import queue
import shutil
import sys
import tempfile
import threading
import time

request = json.loads(sys.stdin.read())
nonce = request['nonce']
result_out = os.fdopen(os.dup(1), 'w')
devnull = os.open(os.devnull, os.O_RDWR)
os.dup2(devnull, 1)
os.dup2(devnull, 0)
deadline = time.monotonic() + request['timeoutSeconds']
result = {'cells': 0, 'cellError': '', 'tests': [], 'reason': None, 'detail': ''}


def finish():
    result_out.write('\n@@check ' + nonce + ' ' + json.dumps(result) + '\n')
    result_out.flush()


def source(cell):
    text = cell.get('source', '')
    return ''.join(text) if isinstance(text, list) else str(text)


try:
    notebook = json.loads(request['notebook'])
    cells = [source(c) for c in notebook.get('cells', []) if c.get('cell_type') == 'code']
except (ValueError, AttributeError, TypeError) as error:
    result['reason'] = 'notebook'
    result['detail'] = 'not a notebook: ' + str(error)[:300]
    finish()
    sys.exit(0)

from jupyter_client.kernelspec import KernelSpec  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402



def socket_folder():
    """A private folder for the kernel's Unix sockets, whose paths may not exceed 107 bytes: the runtime's own
    short folder when it exists, else the project's temporary folder, else /tmp."""
    for parent in (os.environ.get('JUPYTER_RUNTIME_DIR'), os.environ.get('TMPDIR'), '/tmp'):
        if parent and len(parent) < 60 and os.path.isdir(parent) and os.access(parent, os.W_OK):
            return tempfile.mkdtemp(prefix='check-', dir=parent)
    return tempfile.mkdtemp(prefix='check-')


# The sandbox's network is closed, loopback included: the kernel speaks over Unix sockets in a folder of its own.
sockets = socket_folder()
manager = KernelManager(
    transport='ipc',
    ip=os.path.join(sockets, 'kernel'),
    connection_file=os.path.join(sockets, 'kernel.json'),
)
# The project's own Python (its virtual environment, with what the learner installed), not a kernel spec's.
manager._kernel_spec = KernelSpec(
    argv=[sys.executable, '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
    display_name='check',
    language='python',
)


class KernelGone(Exception):
    pass


class OutOfTime(Exception):
    pass


over_memory = threading.Event()


def tree_rss(pid):
    """Resident memory of the kernel and its children, in bytes."""
    total = 0
    pids = [pid]
    try:
        for entry in os.listdir('/proc'):
            if entry.isdigit():
                try:
                    with open(f'/proc/{entry}/stat') as f:
                        if int(f.read().rsplit(')', 1)[1].split()[1]) == pid:
                            pids.append(int(entry))
                except (OSError, IndexError, ValueError):
                    pass
    except OSError:
        pass
    for p in pids:
        try:
            with open(f'/proc/{p}/statm') as f:
                total += int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')
        except (OSError, IndexError, ValueError):
            pass
    return total


def watch_memory(pid, limit):
    while not over_memory.is_set() and manager.is_alive():
        if tree_rss(pid) > limit:
            over_memory.set()
            manager.shutdown_kernel(now=True)
            return
        time.sleep(0.2)


def run(client, code):
    """Executes code; answers None when it ran, else the error as 'Name: value'."""
    msg_id = client.execute(code, store_history=False, allow_stdin=False, stop_on_error=False)
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise OutOfTime()
        try:
            reply = client.get_shell_msg(timeout=min(remaining, 0.5))
        except queue.Empty:
            if over_memory.is_set() or not manager.is_alive():
                raise KernelGone()
            continue
        if reply.get('parent_header', {}).get('msg_id') != msg_id:
            continue
        content = reply['content']
        if content.get('status') == 'ok':
            return None
        return (str(content.get('ename', 'Error')) + ': ' + str(content.get('evalue', '')))[:1000]


client = None
try:
    manager.start_kernel(stdout=devnull, stderr=devnull, cwd=os.getcwd())
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=max(1, min(60, deadline - time.monotonic())))
    pid = manager.provisioner.process.pid
    threading.Thread(target=watch_memory, args=(pid, request['memoryBytes']), daemon=True).start()
    for index, code in enumerate(cells):
        error = run(client, code)
        result['cells'] = index + 1
        if error and not result['cellError']:
            result['cellError'] = f'cell {index + 1}: {error}'
    for test in request['tests']:
        error = run(client, test['code'])
        result['tests'].append({'passed': error is None, 'error': error or ''})
except OutOfTime:
    result['reason'] = 'timeout'
except KernelGone:
    result['reason'] = 'memory' if over_memory.is_set() else 'crashed'
except RuntimeError as error:
    # The kernel did not become ready (it died while starting, or the deadline came first).
    result['reason'] = 'timeout' if time.monotonic() >= deadline else 'crashed'
    result['detail'] = str(error)[:300]
except Exception as error:  # noqa: BLE001 - whatever stopped the kernel's start, the check ends with its reason
    result['reason'] = 'crashed'
    result['detail'] = (type(error).__name__ + ': ' + str(error))[:300]
finally:
    finish()
    if client is not None:
        client.stop_channels()
    try:
        manager.shutdown_kernel(now=True)
    except Exception:  # noqa: BLE001 - the kernel may be gone already
        pass
    shutil.rmtree(sockets, ignore_errors=True)
