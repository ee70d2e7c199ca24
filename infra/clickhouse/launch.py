"""Runs the ClickHouse engine shipped in the npm package @chdb/lib-linux-x64-gnu as a real server.

libchdb's chdb_query_cmdline(argc, argv) is clickhouse-local's main. With --path the databases
(Atomic, MergeTree parts, metadata) live on disk and survive restarts; SYSTEM START LISTEN HTTP
and TCP open the ordinary server interfaces on --listen_host; a query that never ends keeps the
process, and so the servers, alive.

Two processes:
  supervisor (this script, the pid in the pid file): starts the engine process and starts it
      again when it ends after having served (its keep-alive query was killed by a
      `KILL QUERY`, the engine crashed or was OOM-killed). The engine cannot be restarted inside
      one process: a second chdb_query_cmdline fails ("EventNotifier is initialized twice").
      If the engine ends before it ever listened on the HTTP port (port in use, data dir locked
      by another instance), the supervisor exits 1: the error is in the log above.
  engine (`--engine`): calls chdb_query_cmdline; it dies with the supervisor (PR_SET_PDEATHSIG).
SIGTERM or SIGINT to the supervisor (or its process group) stops both, in about 0.1-2 s.

Usage: launch.py <libchdb.so> <data dir> <http port> <tcp port> <server log> [--setting=value ...]
Extra arguments go to clickhouse-local as they are; query-level settings such as --async_insert=0
become the defaults of every HTTP and TCP query.

       launch.py --local <libchdb.so> [clickhouse-local arguments ...]
runs clickhouse-local once, without a server (e.g. --config-file=… --query="…"): the result on
stdout, an error on stderr and exit status 1.

Standard library only (ctypes, subprocess): python3 is on every machine of this kind.
"""
import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time

KEEP_ALIVE = ('SELECT sleepEachRow(1) FROM numbers(1000000000) '
              'SETTINGS max_block_size = 1, max_execution_time = 0 FORMAT Null')
MAX_RESTARTS = 5            # within RESTART_WINDOW_S, then give up
RESTART_WINDOW_S = 60


def say(msg: str) -> None:
    print(f'{time.strftime("%Y-%m-%d %H:%M:%S")} launcher[{os.getpid()}]: {msg}', file=sys.stderr, flush=True)


def engine(lib_path: str, data_dir: str, http_port: str, tcp_port: str, server_log: str, extra: list) -> int:
    # Die with the supervisor, whatever kills it: never leave an orphan holding the port.
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:
        return 1
    args = [
        'clickhouse',
        f'--path={data_dir}',
        '--listen_host=127.0.0.1',
        f'--http_port={http_port}',
        f'--tcp_port={tcp_port}',
        # The engine's own log, warnings and errors only (each failed query is an <Error> with a
        # stack trace). clickhouse-local takes --logger.log and --log-level, not --logger.level,
        # .size or .count. Fatal start-up errors (port in use, data dir locked by another
        # instance) are also printed to stderr, i.e. the launcher's log file.
        f'--logger.log={server_log}',
        '--log-level=warning',
        *extra,
        '--query',
        f'SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; {KEEP_ALIVE}',
    ]
    lib = ctypes.CDLL(lib_path)
    lib.chdb_query_cmdline.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    lib.chdb_query_cmdline.restype = ctypes.c_void_p
    lib.chdb_result_error.argtypes = [ctypes.c_void_p]
    lib.chdb_result_error.restype = ctypes.c_char_p
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    result = lib.chdb_query_cmdline(len(args), argv)
    # The keep-alive query never ends on its own: start-up failed (the engine has printed the
    # error to stderr already) or the query was killed.
    err = lib.chdb_result_error(result) if result else None
    say(f'engine returned{": " + err.decode(errors="replace") if err else " (see the error above)"}')
    return 1


def listens(pid: int, port: str) -> bool:
    """Whether process `pid` itself holds the listening socket on `port` (not some other
    instance that answers on it while our engine fails with "address in use")."""
    suffix = f':{int(port):04X}'
    inodes = set()
    for table in ('/proc/net/tcp', '/proc/net/tcp6'):
        try:
            with open(table) as f:
                for line in f.readlines()[1:]:
                    cols = line.split()
                    if cols[3] == '0A' and cols[1].endswith(suffix):  # 0A = LISTEN
                        inodes.add(cols[9])
        except OSError:
            pass
    if not inodes:
        return False
    try:
        fds = os.listdir(f'/proc/{pid}/fd')
    except OSError:
        return False
    for fd in fds:
        try:
            link = os.readlink(f'/proc/{pid}/fd/{fd}')
        except OSError:
            continue
        if link.startswith('socket:[') and link[8:-1] in inodes:
            return True
    return False


def supervise(argv: list) -> int:
    lib_path, data_dir, http_port, tcp_port, server_log = argv[:5]
    stopping = False
    child = None

    def stop(signum, _frame):
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    say(f'clickhouse-local from {lib_path}, data {data_dir}, http 127.0.0.1:{http_port}, '
        f'tcp 127.0.0.1:{tcp_port}, {" ".join(argv[5:])}')
    restarts = []
    while True:
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--engine', *argv])
        served = False
        while not served and not stopping and child.poll() is None:
            served = listens(child.pid, http_port)
            if not served:
                time.sleep(0.2)
        # Serving: block until the engine ends (a signal's handler runs meanwhile and passes it
        # on), rather than waking five times a second for the life of the server.
        child.wait()
        if stopping:
            say(f'stopped (engine pid {child.pid} exit {child.returncode})')
            return 0
        if not served:
            say(f'engine pid {child.pid} exited ({child.returncode}) before serving; giving up')
            return 1
        now = time.monotonic()
        restarts = [r for r in restarts if now - r < RESTART_WINDOW_S] + [now]
        if len(restarts) > MAX_RESTARTS:
            say(f'engine ended {len(restarts)} times within {RESTART_WINDOW_S} s; giving up')
            return 1
        say(f'engine pid {child.pid} ended ({child.returncode}) after serving; starting it again')


def run_local(lib_path: str, args: list) -> int:
    lib = ctypes.CDLL(lib_path)
    lib.chdb_query_cmdline.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    lib.chdb_query_cmdline.restype = ctypes.c_void_p
    for name, restype in (('chdb_result_error', ctypes.c_char_p), ('chdb_result_buffer', ctypes.c_void_p), ('chdb_result_length', ctypes.c_size_t)):
        getattr(lib, name).argtypes = [ctypes.c_void_p]
        getattr(lib, name).restype = restype
    argv = ['clickhouse', *args]
    # A failed statement is reported on stderr only (the result holds no error): catch it there.
    saved = os.dup(2)
    with tempfile.TemporaryFile() as errors:
        os.dup2(errors.fileno(), 2)
        try:
            result = lib.chdb_query_cmdline(len(argv), (ctypes.c_char_p * len(argv))(*[a.encode() for a in argv]))
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        errors.seek(0)
        stderr = errors.read().decode(errors='replace')
    sys.stderr.write(stderr)
    err = lib.chdb_result_error(result) if result else None
    if err:
        print(err.decode(errors='replace'), file=sys.stderr)
    if not result or err or 'DB::Exception' in stderr:
        return 1
    size = lib.chdb_result_length(result)
    sys.stdout.write(ctypes.string_at(lib.chdb_result_buffer(result), size).decode(errors='replace') if size else '')
    return 0


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == '--local':
        return run_local(sys.argv[2], sys.argv[3:])
    if len(sys.argv) >= 2 and sys.argv[1] == '--engine':
        rest = sys.argv[2:]
        return engine(rest[0], rest[1], rest[2], rest[3], rest[4], rest[5:])
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    argv = sys.argv[1:]
    argv[1] = os.path.join(os.path.abspath(argv[1]), '')  # clickhouse wants the trailing slash
    os.makedirs(argv[1], exist_ok=True)
    return supervise(argv)


if __name__ == '__main__':
    sys.exit(main())
