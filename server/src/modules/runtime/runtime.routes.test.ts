import { randomUUID } from 'node:crypto';
import { truncateSync } from 'node:fs';
import path from 'node:path';
import { readRuntimeSocketNotice, ROLES } from '@aiedu/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildCustomer, buildUser, signIn, testClock } from '../../test/factories.js';
import { JUPYTER_MISSING, jupyterPorts, KernelChannel, stdoutOf, waitFor } from '../../test/jupyter-kit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { LocalRuntimeDriver } from './local-driver.js';

describe.skipIf(JUPYTER_MISSING)('notebooks on a real Jupyter server', () => {
  let t: TestApp;
  let base: string;
  const clock = testClock();
  const tokens: Record<string, string> = {};
  const accounts: Record<string, { code: string; password: string }> = {};
  const signInAgain = async (who: string) => {
    tokens[who] = await signIn(t.app, accounts[who]!.code, who, accounts[who]!.password);
  };
  let projectId: string;
  let kernelId: string;
  let kernel: KernelChannel;
  const logLines: string[] = [];

  const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens[who]! } });
  const proxy = (id: string) => `/gw/api/v1/runtime/${id}`;
  const wsUrl = (id: string, rest: string, who = 'kid') =>
    `${base.replace('http', 'ws')}${proxy(id)}${rest}?token=${encodeURIComponent(tokens[who]!)}`;

  beforeAll(async () => {
    // Every guarantee below holds for a server taken from the warm pool and bound to the project.
    t = await createTestApp({
      now: clock.now,
      logStream: { write: (line) => void logLines.push(line) },
      config: { runtimeIdleMinutes: 10, runtimeWarmPool: { BASIC: 1, ADVANCED: 0, GPU: 0 }, runtimeMaxProcesses: 200 },
    });
    const db = t.database.db;
    const school = await buildCustomer(db);
    const other = await buildCustomer(db);
    for (const [name, customerId] of [
      ['kid', school.id],
      ['classmate', school.id],
      ['stranger', other.id],
    ] as const) {
      const user = await buildUser(db, { customerId, username: name, roles: [ROLES.student] });
      accounts[name] = { code: name === 'stranger' ? other.code : school.code, password: user.password };
      await signInAgain(name);
    }
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const created = await call('kid', 'POST', '/gw/api/v1/projects', { name: 'Numbers' });
    projectId = created.json().data.id;
  }, 60_000);
  afterAll(() => t.close());

  it('starts a runtime and runs numpy through the gateway', async () => {
    const pool = t.app.runtimes.driver as LocalRuntimeDriver;
    await waitFor(() => pool.warmCounts().BASIC === 1, 60_000);
    const started = await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
    expect(started.json()).toMatchObject({ errorCode: '1000', data: { state: 'RUNNING', runtimeType: 'BASIC' } });
    const res = await call('kid', 'POST', `${proxy(projectId)}/api/kernels`, { name: 'python3' });
    expect(res.statusCode).toBe(201);
    kernelId = res.json().id;
    kernel = await KernelChannel.open(wsUrl(projectId, `/api/kernels/${kernelId}/channels`));
    const outputs = await kernel.execute('import numpy as np; print(np.arange(5).sum())');
    expect(stdoutOf(outputs).trim()).toBe('10');
    // The start took the waiting server; the pool starts a fresh one for the next project.
    const startedLog = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'runtime started');
    expect(startedLog).toMatchObject({ projectId, warm: true });
    await waitFor(() => pool.warmCounts().BASIC === 1, 60_000);
    // The kernel runs the project's own virtual environment, where its packages are installed.
    const venv = path.join(t.dataDir, 'runtime', projectId, 'venv');
    const probe = await kernel.execute(
      'import sys\nprint(sys.prefix)\nprint([p for p in sys.path if p.endswith(("site-packages", "dist-packages"))][0])',
    );
    const [prefix, firstSitePackages] = stdoutOf(probe).trim().split('\n');
    expect(prefix).toBe(venv);
    // The venv's packages come before Debian's, as in the venv's own Python.
    expect(firstSitePackages).toMatch(new RegExp(`^${venv}/lib/python3\\.\\d+/site-packages$`));
  }, 180_000);

  it('returns a matplotlib chart as image/png', async () => {
    const outputs = await kernel.execute('import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.show()');
    const image = outputs.find((o) => o.msgType === 'display_data');
    const png = (image?.content.data as Record<string, string> | undefined)?.['image/png'];
    expect(
      Buffer.from(png ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  }, 60_000);

  it('interrupts an endless loop', async () => {
    const { msgId } = kernel.send('while True:\n    pass');
    const done = kernel.collect(msgId);
    await waitFor(async () => {
      const kernels = (await call('kid', 'GET', `${proxy(projectId)}/api/kernels`)).json();
      return kernels[0]?.execution_state === 'busy';
    });
    const interrupted = await call('kid', 'POST', `${proxy(projectId)}/api/kernels/${kernelId}/interrupt`);
    expect(interrupted.statusCode).toBe(204);
    const outputs = await done;
    expect(outputs.find((o) => o.msgType === 'error')?.content.ename).toBe('KeyboardInterrupt');
  }, 60_000);

  it('runs the kernel as an unprivileged user that cannot read the server data', async () => {
    const probe = (target: string) =>
      `try:\n    os.listdir(${JSON.stringify(target)}) if os.path.isdir(${JSON.stringify(target)}) else open(${JSON.stringify(target)}).read()\n    print('read')\nexcept PermissionError:\n    print('refused')`;
    const targets = [path.join(t.dataDir, 'secrets', 'jwt.key'), path.join(t.dataDir, 'files'), t.dataDir];
    const outputs = await kernel.execute(`import os\nprint(os.getuid())\n${targets.map(probe).join('\n')}`);
    const [uid, ...verdicts] = stdoutOf(outputs).trim().split('\n');
    if (process.getuid?.() === 0) {
      expect(Number(uid)).toBeGreaterThanOrEqual(t.config.runtimeUidBase);
      expect(verdicts).toEqual(['refused', 'refused', 'refused']);
    } else {
      expect(Number(uid)).toBe(process.getuid?.());
    }
    const env = stdoutOf(
      await kernel.execute('import os; print("DATABASE_URL" in os.environ, "JWT_SECRET" in os.environ)'),
    );
    expect(env.trim()).toBe('False False');
    // What it writes to the machine's shared /tmp is its own, and its temporary files go to a folder of its own.
    const shared = stdoutOf(
      await kernel.execute(
        "import os, tempfile\npath = f'/tmp/aiedu-answers-{os.getpid()}'\nopen(path, 'w').write('42')\nprint(oct(os.stat(path).st_mode & 0o777), tempfile.gettempdir())\nos.remove(path)",
      ),
    );
    expect(shared.trim()).toBe(`0o600 ${path.join(t.dataDir, 'runtime', projectId, 'home', '.tmp')}`);
  }, 60_000);

  // Without root every runtime is the server's own user, which reads its own processes' environments.
  it.skipIf(process.getuid?.() !== 0)(
    'gives a kernel no token that opens a Jupyter server: not a waiting one, not its own, not another project’s',
    async () => {
      const pool = t.app.runtimes.driver as LocalRuntimeDriver;
      await waitFor(() => pool.warmCounts().BASIC === 1, 60_000);
      // What a student's code can find: every command line and environment it may read. Its network cannot reach
      // a port of this machine (runtime-isolation.test), so each is tried from here against every Jupyter server
      // listening on loopback, as a runtime would if it could.
      const outputs = await kernel.execute(
        [
          'import glob, re',
          'tokens = set()',
          "for name in glob.glob('/proc/[0-9]*/cmdline') + glob.glob('/proc/[0-9]*/environ'):",
          '    try:',
          "        tokens.update(re.findall(rb'[0-9a-f]{48}', open(name, 'rb').read()))",
          '    except OSError:',
          '        pass',
          "print(' '.join(t.decode() for t in tokens))",
        ].join('\n'),
      );
      const found = stdoutOf(outputs).trim().split(' ').filter(Boolean);
      const ports = jupyterPorts();
      const status = async (port: number, token?: string) => {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/status`, {
            headers: token ? { authorization: `token ${token}` } : {},
            signal: AbortSignal.timeout(1000),
          });
          return res.status;
        } catch {
          return null;
        }
      };
      const servers = [];
      for (const port of ports) if ((await status(port)) === 403) servers.push(port);
      // The waiting server and this project's own answer there, and refuse a call without their token.
      expect(servers.length).toBeGreaterThanOrEqual(2);
      let opened = 0;
      for (const port of servers) for (const token of found) if ((await status(port, token)) === 200) opened++;
      expect(opened).toBe(0);
    },
    60_000,
  );

  // Without root every runtime is the server's own user, whose processes are not the runtime's alone to count.
  it.skipIf(process.getuid?.() !== 0)(
    'stops a fork bomb at the runtime’s process limit, and the kernel goes on',
    async () => {
      const outputs = await kernel.execute(
        [
          'import os, time',
          'children, refused = [], None',
          'try:',
          '    for _ in range(1000):',
          '        pid = os.fork()',
          '        if pid == 0:',
          '            time.sleep(60)',
          '            os._exit(0)',
          '        children.append(pid)',
          'except OSError as error:',
          '    refused = error.errno',
          'for pid in children:',
          '    os.kill(pid, 9)',
          '    os.waitpid(pid, 0)',
          'print(len(children), refused)',
        ].join('\n'),
      );
      const [forked, refused] = stdoutOf(outputs).trim().split(' ');
      // The project's processes and threads together stay within RUNTIME_MAX_PROCESSES (200 here).
      expect(Number(forked)).toBeLessThan(200);
      expect(refused).toBe('11'); // EAGAIN
      expect(stdoutOf(await kernel.execute('print(6 * 7)')).trim()).toBe('42');
    },
    60_000,
  );

  it('opens a terminal in the project folder', async () => {
    const res = await call('kid', 'POST', `${proxy(projectId)}/api/terminals`, {});
    expect(res.statusCode).toBe(200);
    const name = res.json().name;
    const socket = new WebSocket(wsUrl(projectId, `/terminals/websocket/${name}`));
    let screen = '';
    socket.on('message', (data) => {
      const [kind, text] = JSON.parse(String(data)) as [string, string];
      if (kind === 'stdout') screen += text;
    });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify(['stdin', 'pwd\r']));
    await waitFor(() => screen.includes('/workspace'));
    // The prompt names the project's user and the project, not bash's "I have no name!"; so do tools that ask.
    expect(screen).toMatch(/aiedu@Numbers.*:.*workspace.*\$ /);
    expect(screen).not.toContain('I have no name!');
    socket.send(JSON.stringify(['stdin', 'python3 -c "import getpass; print(getpass.getuser())"\r']));
    await waitFor(() => /\raiedu\r\n/.test(screen));
    socket.close();
  }, 30_000);

  it('refuses the gateway to another user, another tenant and anonymous callers, over HTTP and WebSocket', async () => {
    for (const who of ['classmate', 'stranger']) {
      const res = await call(who, 'GET', `${proxy(projectId)}/api/kernels`);
      expect([403, 404]).toContain(res.statusCode);
      await expect(KernelChannel.open(wsUrl(projectId, `/api/kernels/${kernelId}/channels`, who))).rejects.toThrow(
        /upgrade refused: 40[34]/,
      );
    }
    expect((await t.app.inject({ method: 'GET', url: `${proxy(projectId)}/api/kernels` })).statusCode).toBe(401);
    await expect(
      KernelChannel.open(`${base.replace('http', 'ws')}${proxy(projectId)}/api/kernels/${kernelId}/channels`),
    ).rejects.toThrow(/upgrade refused: 401/);
    // A forged token is no better than none.
    await expect(
      KernelChannel.open(`${base.replace('http', 'ws')}${proxy(projectId)}/api/kernels/${kernelId}/channels?token=x`),
    ).rejects.toThrow(/upgrade refused: 401/);
  }, 30_000);

  it('never culls a runtime while a cell runs, and culls it once idle', async () => {
    const { msgId } = kernel.send('import time; time.sleep(4)');
    const done = kernel.collect(msgId);
    await waitFor(
      async () => (await call('kid', 'GET', `${proxy(projectId)}/api/kernels`)).json()[0]?.execution_state === 'busy',
    );
    clock.advance(11 * 60_000);
    await t.app.runtimes.tick();
    let status = (await call('kid', 'GET', `/gw/api/v1/projects/${projectId}/runtime`)).json().data;
    expect(status.state).toBe('RUNNING');
    await done;
    // An open editor keeps it: its keep-alive counts as activity, from its user only.
    const keepOnline = `/gw/api/v1/projects/${projectId}/runtime/keepOnline`;
    expect((await call('stranger', 'POST', keepOnline)).json().errorCode).not.toBe('1000');
    for (let minute = 0; minute < 11; minute += 5) {
      clock.advance(5 * 60_000);
      expect((await call('kid', 'POST', keepOnline)).json().errorCode).toBe('1000');
      await t.app.runtimes.tick();
    }
    status = (await call('kid', 'GET', `/gw/api/v1/projects/${projectId}/runtime`)).json().data;
    expect(status.state).toBe('RUNNING');
    // Closed, it sends nothing: the idle stop frees the runtime.
    clock.advance(11 * 60_000);
    // (The access token of 30 minutes ran out on this clock.)
    await signInAgain('kid');
    await t.app.runtimes.tick();
    status = (await call('kid', 'GET', `/gw/api/v1/projects/${projectId}/runtime`)).json().data;
    expect(status).toMatchObject({ state: 'STOPPED', stopReason: 'idle' });
    expect((await call('kid', 'POST', keepOnline)).json().errorCode).toBe('3105');
    // 37 minutes of running were debited from the weekly balance.
    expect(status.balance.usedMinutes).toBe(37);
    kernel.close();
  }, 60_000);

  it('stops a runtime once it is up when the stop comes while it boots', async () => {
    const manager = t.app.runtimes;
    const { driver } = manager;
    const realStart = driver.start.bind(driver);
    const realStop = manager.stop.bind(manager);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let booting = false;
    let stopAsked = false;
    driver.start = async (...args) => {
      booting = true;
      await gate;
      return realStart(...args);
    };
    manager.stop = async (...args) => {
      stopAsked = true;
      return realStop(...args);
    };
    try {
      const started = call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
      await waitFor(() => booting);
      const stopped = call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/stop`, {});
      await waitFor(() => stopAsked);
      release();
      expect((await started).statusCode).toBe(200);
      expect((await stopped).json().errorCode).toBe('1000');
      const status = (await call('kid', 'GET', `/gw/api/v1/projects/${projectId}/runtime`)).json().data;
      expect(status).toMatchObject({ state: 'STOPPED', stopReason: 'user' });
      expect(manager.endpoint(projectId)).toBeNull();
    } finally {
      driver.start = realStart;
      manager.stop = realStop;
    }
  }, 90_000);

  it('keeps the files saved by the kernel across a stop and a restart', async () => {
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
    const kid = (await call('kid', 'POST', `${proxy(projectId)}/api/kernels`, { name: 'python3' })).json().id;
    const channel = await KernelChannel.open(wsUrl(projectId, `/api/kernels/${kid}/channels`));
    await channel.execute("open('result.txt', 'w').write('kept')");
    channel.close();
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/stop`, {});
    expect((await call('kid', 'GET', `${proxy(projectId)}/api/kernels`)).json().errorCode).toBe('3105');
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
    const file = await call('kid', 'GET', `${proxy(projectId)}/api/contents/result.txt`);
    expect(file.json().content).toBe('kept');
    const viaFiles = await call('kid', 'GET', `/gw/api/v1/projects/${projectId}/files/content?path=result.txt`);
    expect(viaFiles.json().data.content).toBe('kept');
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/stop`, {});
  }, 90_000);
  it('tells gateway WebSockets whose token expired to renew it, and closes those whose sign-in ends or whose user loses the project', async () => {
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
    const kid = (await call('kid', 'POST', `${proxy(projectId)}/api/kernels`, { name: 'python3' })).json().id;
    const session = randomUUID();
    const channels = (who: string) => `${wsUrl(projectId, `/api/kernels/${kid}/channels`, who)}&session_id=${session}`;
    let channel = await KernelChannel.open(channels('kid'), {}, session);

    const started = new Set<string>();
    const watch = (socket: WebSocket) =>
      socket.on('message', (data) => {
        if (readRuntimeSocketNotice(String(data))) return;
        const message = JSON.parse(String(data)) as {
          header: { msg_type: string };
          parent_header: { msg_id?: string };
        };
        if (message.header.msg_type === 'execute_input') started.add(message.parent_header.msg_id ?? '');
      });
    watch(channel.socket);
    const expireToken = async () => {
      clock.advance((t.config.accessTokenTtlSeconds + 1) * 1000);
      await t.app.runtimes.tick(); // the busy kernel counts as activity: the runtime stays
      await t.app.runtimeSockets.check();
    };
    const renewSocket = (who: string, socket: string) =>
      call(who, 'PUT', `/gw/api/v1/runtime/sockets/${socket}/token`).then((res) => res.json().errorCode);

    // The access token expires while a cell runs: the gateway's notice names the socket, and the client hands it a
    // fresh token, as the editor does. The socket stays open and the cell's output arrives on it.
    const first = channel.send("import time; time.sleep(3); print('kept')");
    const firstOutput = channel.collect(first.msgId);
    await waitFor(() => started.has(first.msgId));
    await expireToken();
    const notice = await channel.notice();
    await signInAgain('kid');
    await signInAgain('classmate');
    // Only the socket's own user can renew it.
    expect(await renewSocket('classmate', notice.socket)).toBe('1004');
    expect(await renewSocket('kid', notice.socket)).toBe('1000');
    expect(stdoutOf(await firstOutput).trim()).toBe('kept');
    expect(channel.socket.readyState).toBe(WebSocket.OPEN);

    // A client that cannot renew it closes the socket itself: the spent token opens nothing more, a fresh one
    // reconnects to the same kernel session, and the output of the cell still running arrives there.
    const { msgId } = channel.send("import time; time.sleep(3); print('kept again')");
    await waitFor(() => started.has(msgId));
    await expireToken();
    const second = await channel.notice(2);
    expect(second.socket).toBe(notice.socket);
    channel.close();
    expect(await channel.closed).toMatchObject({ code: 1005 });
    await expect(KernelChannel.open(channels('kid'))).rejects.toThrow(/upgrade refused: 401/);
    await signInAgain('kid');
    // A closed socket takes no token.
    expect(await renewSocket('kid', notice.socket)).toBe('1004');
    channel = await KernelChannel.open(channels('kid'), {}, session);
    expect(stdoutOf(await channel.collect(msgId)).trim()).toBe('kept again');

    // Logging out ends the sign-in: its sockets close at once and its still unexpired token opens nothing more.
    await call('kid', 'POST', '/gw/api/v1/auth/logout');
    expect(await channel.closed).toMatchObject({ code: 4401 });
    expect((await call('kid', 'GET', `${proxy(projectId)}/api/kernels`)).json().errorCode).toBe('E002');
    await expect(KernelChannel.open(channels('kid'))).rejects.toThrow(/upgrade refused: 401/);

    // A collaborator removed from the project loses its socket (4403) at the next check.
    await signInAgain('kid');
    await signInAgain('classmate');
    const collaborators = `/gw/api/v1/projects/${projectId}/collaborators`;
    expect((await call('kid', 'PUT', collaborators, { usernames: ['classmate'] })).statusCode).toBe(200);
    const theirs = await KernelChannel.open(wsUrl(projectId, `/api/kernels/${kid}/channels`, 'classmate'));
    const mine = await KernelChannel.open(wsUrl(projectId, `/api/kernels/${kid}/channels`));
    await call('kid', 'PUT', collaborators, { usernames: [] });
    await t.app.runtimeSockets.check();
    expect(await theirs.closed).toMatchObject({ code: 4403 });
    expect(stdoutOf(await mine.execute('print(1 + 1)')).trim()).toBe('2');
    mine.close();
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/stop`, {});
  }, 90_000);
  it('holds writes through the Jupyter contents API to the file tree rules, codes and messages', async () => {
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/start`, {});
    const contents = (rest: string) => `${proxy(projectId)}/api/contents${rest}`;
    const send = (method: 'PUT' | 'POST' | 'PATCH', url: string, payload: object) =>
      t.app.inject({ method, url, payload, headers: { 'x-authorization': tokens.kid!, language: 'en' } });
    const text = (content: string) => ({ type: 'file', format: 'text', content });
    const refusal = (res: { statusCode: number; json(): { errorCode: string; errorMsg: string } }) => ({
      status: res.statusCode,
      code: res.json().errorCode,
      message: res.json().errorMsg,
    });
    const fileTree = await send('POST', `/gw/api/v1/projects/${projectId}/files`, {
      folder: '',
      name: 'bad*name.txt',
      kind: 'file',
    });

    // Names: special characters and more than 30 characters are refused as the file tree refuses them.
    expect(refusal(await send('PUT', contents('/bad*name.txt'), text('x')))).toEqual(refusal(fileTree));
    expect(refusal(fileTree)).toMatchObject({ status: 400, code: '3106' });
    expect(refusal(await send('PUT', contents(`/${'n'.repeat(27)}.txt`), text('x')))).toMatchObject({ code: '3106' });
    expect((await send('PUT', contents('/notes.txt'), text('hello'))).statusCode).toBe(201);
    expect((await send('PUT', contents('/notes.txt'), text('hello again'))).statusCode).toBe(200);
    const saved = await call('kid', 'GET', `/gw/api/v1/projects/${projectId}/files/content?path=notes.txt`);
    expect(saved.json().data.content).toBe('hello again');

    // Copies get Jupyter's name, checked before the copy exists.
    const copy = await send('POST', contents(''), { copy_from: 'notes.txt' });
    expect(copy.statusCode).toBe(201);
    expect(copy.json().path).toBe('notes-Copy1.txt');
    expect((await send('PUT', contents(`/${'x'.repeat(24)}.txt`), text('y'))).statusCode).toBe(201);
    expect(refusal(await send('POST', contents(''), { copy_from: `${'x'.repeat(24)}.txt` }))).toMatchObject({
      code: '3106',
    });

    // Moves: not into itself, not onto an existing name, new names by the same rules.
    expect((await send('PUT', contents('/data'), { type: 'directory' })).statusCode).toBe(201);
    expect((await send('PUT', contents('/data/inner'), { type: 'directory' })).statusCode).toBe(201);
    expect(refusal(await send('PATCH', contents('/data'), { path: 'data/inner/data' }))).toMatchObject({
      status: 400,
      code: '2001',
    });
    expect(refusal(await send('PATCH', contents('/notes.txt'), { path: 'notes-Copy1.txt' }))).toMatchObject({
      status: 409,
      code: '2002',
    });
    expect(refusal(await send('PATCH', contents('/notes.txt'), { path: 'data/n?tes.txt' }))).toMatchObject({
      code: '3106',
    });
    const moved = await send('PATCH', contents('/notes.txt'), { path: 'data/notes.txt' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().path).toBe('data/notes.txt');

    // One file stays within 100 MB, chunked uploads counted whole (a sparse file stands in for 100 MB of chunks).
    const workspace = path.join(t.dataDir, 'runtime', projectId, 'workspace');
    const limit = 100 * 1024 * 1024;
    expect(
      (await send('PUT', contents('/big.bin'), { type: 'file', format: 'base64', content: 'AAAA', chunk: 1 }))
        .statusCode,
    ).toBe(201);
    truncateSync(path.join(workspace, 'big.bin'), limit - 2);
    const chunk = { type: 'file', format: 'base64', content: Buffer.alloc(3).toString('base64'), chunk: -1 };
    expect(refusal(await send('PUT', contents('/big.bin'), chunk))).toMatchObject({ status: 413, code: '2006' });

    // The owner's storage quota ("no space"), over all of the owner's projects.
    // The other files hold a few hundred bytes: 10 kB under the quota leaves room for 4 bytes, not for 20 kB.
    truncateSync(path.join(workspace, 'big.bin'), t.config.userStorageQuotaBytes - 10_000);
    expect(refusal(await send('PUT', contents('/more.txt'), text('x'.repeat(20_000))))).toMatchObject({
      status: 507,
      code: '2003',
    });
    expect((await send('PUT', contents('/more.txt'), text('0123'))).statusCode).toBe(201);
    await call('kid', 'DELETE', `/gw/api/v1/projects/${projectId}/files?path=big.bin`);
    await call('kid', 'POST', `/gw/api/v1/projects/${projectId}/runtime/stop`, {});
  }, 90_000);
});
