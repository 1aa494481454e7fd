"""One run of an auto-scored event track, in a sandbox of its own (never in the API process, never a team's runtime).

The run's folder (`folder`, in its working directory) holds the organiser's script and the two files it scores:
  evaluate.py                the organiser's evaluation script
  predictions<.ext>          the team's predictions, as uploaded
  answers<.ext>              the hidden answer set, as uploaded

Reads one JSON request on standard input:
  {"nonce": str, "folder": str, "predictions": str, "answers": str, "timeoutSeconds": int, "memoryBytes": int}

The script's contract: it is run as `python3 evaluate.py <predictions> <answers>` (paths of the two files) and prints
its score, one finite number, as the last non-empty line of its standard output, exiting with status 0. Anything it
prints before is ignored; a non-zero exit, or a last line that is not a number, is a failure of the script (its last
error line is shown to the team). It may use at most `memoryBytes` of memory and `timeoutSeconds` of time.

Writes one line to its own standard output:
  @@evaluate <nonce> {"score": float | null, "error": str, "reason": null | "timeout" | "script"}
The script's output never reaches that stream (it goes to a pipe this process reads), and the nonce, which only
this process knows, marks the one line the server takes: nothing the script prints can pass for a result.
"""

import json
import math
import os
import resource
import signal
import subprocess
import sys

# Not dumpable: the script, run as the same user, can neither read this process's memory (the nonce) nor open its
# file descriptors through /proc.
try:
    import ctypes

    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
except (OSError, AttributeError):
    pass

request = json.loads(sys.stdin.read())
nonce = request['nonce']
result_out = os.fdopen(os.dup(1), 'w')
devnull = os.open(os.devnull, os.O_RDWR)
os.dup2(devnull, 1)
os.dup2(devnull, 0)
result = {'score': None, 'error': '', 'reason': None}
os.chdir(request['folder'])


def finish():
    result_out.write('\n@@evaluate ' + nonce + ' ' + json.dumps(result) + '\n')
    result_out.flush()


def last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:500] if lines else ''


def limit():
    memory = int(request.get('memoryBytes') or 0)
    if memory > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


env = dict(os.environ)
env['MPLBACKEND'] = 'Agg'
tmp = env.get('TMPDIR')
if tmp:
    os.makedirs(tmp, exist_ok=True)

child = subprocess.Popen(
    [sys.executable, 'evaluate.py', request['predictions'], request['answers']],
    stdin=subprocess.DEVNULL,
    stdout=subprocess.PIPE,
    stderr=subprocess.PIPE,
    env=env,
    preexec_fn=limit,
    start_new_session=True,
)
try:
    stdout, stderr = child.communicate(timeout=request['timeoutSeconds'])
except subprocess.TimeoutExpired:
    os.killpg(child.pid, signal.SIGKILL)
    child.communicate()
    result['reason'] = 'timeout'
    result['error'] = 'the evaluation took longer than %d s' % request['timeoutSeconds']
    finish()
    sys.exit(0)

# Whatever the script left running in its session goes with it.
try:
    os.killpg(child.pid, signal.SIGKILL)
except ProcessLookupError:
    pass

out = stdout.decode('utf-8', 'replace')
err = stderr.decode('utf-8', 'replace')
if child.returncode != 0:
    result['reason'] = 'script'
    result['error'] = last_line(err) or 'the evaluation script exited with status %d' % child.returncode
else:
    line = last_line(out)
    try:
        score = float(line)
        if not math.isfinite(score):
            raise ValueError(line)
        result['score'] = score
    except ValueError:
        result['reason'] = 'script'
        result['error'] = 'the evaluation script printed no score as its last line: ' + line[:200]
finish()
