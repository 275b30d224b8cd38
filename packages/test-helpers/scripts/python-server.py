"""Python kept for one test file (src/python.ts, `runPython`).

Runs each request as `python3 <args>` would, one at a time, in this one
process, so numpy, xarray, netCDF4 and zarr are imported once per test file
instead of once per call. A request is one line of JSON on stdin:
{"args": [script, ...] or ["-c", code, ...], "cwd": ..., "env": {...},
"input": text or null}. The answer is one line of JSON on file descriptor 3:
{"code": exit status, "stdout": text, "stderr": text}.

Each script runs as `__main__` in a fresh namespace, with its folder first
on sys.path, its arguments in sys.argv, the request's stdin text, folder and
environment; what it prints to sys.stdout and sys.stderr is its answer.
"""

import io
import json
import os
import runpy
import sys
import traceback

answers = os.fdopen(3, "w", encoding="utf-8")
requests = sys.stdin
own = (sys.argv[:], sys.path[0], sys.stdin, sys.stdout, sys.stderr)


def exit_status(stop, stderr):
    """The status `python3` exits with on SystemExit(stop.code), printing a message code as it does."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=stderr)
    return 1


def run(request):
    args = request["args"]
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True)
    stderr = io.StringIO()
    sys.stdin = io.StringIO(request.get("input") or "")
    sys.stdout, sys.stderr = stdout, stderr
    code = 0
    try:
        if args[0] == "-c":
            sys.argv = ["-c", *args[2:]]
            sys.path[0] = ""
            exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        else:
            sys.argv = list(args)
            sys.path[0] = os.path.dirname(os.path.abspath(args[0]))
            runpy.run_path(args[0], run_name="__main__")
    except SystemExit as stop:
        code = exit_status(stop, stderr)
    except BaseException:
        traceback.print_exc(file=stderr)
        code = 1
    finally:
        sys.argv, sys.path[0], sys.stdin, sys.stdout, sys.stderr = own
    stdout.flush()
    text = stdout.buffer.getvalue().decode("utf-8", errors="replace")
    return {"code": code, "stdout": text, "stderr": stderr.getvalue()}


for line in requests:
    answers.write(json.dumps(run(json.loads(line))) + "\n")
    answers.flush()
