"""Runs the ClickHouse engine shipped in the npm package @chdb/lib-linux-x64-gnu as a real
HTTP server: libchdb's chdb_query_cmdline is clickhouse-local's main. SYSTEM START LISTEN HTTP
opens the server, and a query that never ends keeps the process (and the server) alive.
Usage: launch.py <libchdb.so> <data dir> <http port> <tcp port>"""
import ctypes
import sys

lib_path, data_dir, http_port, tcp_port = sys.argv[1:5]
lib = ctypes.CDLL(lib_path)
args = [
    'clickhouse', f'--path={data_dir}', '--listen_host=127.0.0.1', f'--http_port={http_port}', f'--tcp_port={tcp_port}',
    '--async_insert=0', '--mutations_sync=1',
    '--query',
    'SYSTEM START LISTEN HTTP; '
    'SELECT sleepEachRow(1) FROM numbers(1000000000) SETTINGS max_block_size=1, max_execution_time=0 FORMAT Null',
]
argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
lib.chdb_query_cmdline.restype = ctypes.c_void_p
lib.chdb_query_cmdline(len(args), argv)
