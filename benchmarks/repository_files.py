"""Public datasets the benchmarks read in place from their GitHub repositories (nothing of them enters the project):
a checkout, or the bare git directory the `fetch` tool leaves, read with `git show`."""
import os
import subprocess
import sys


def read(root, path):
    """The text of `path` in the checkout `root`, or in the (bare) git directory `root`'s HEAD; exits naming both when
    neither holds it."""
    local = os.path.join(root, path)
    if os.path.isfile(local):
        with open(local, encoding="utf-8") as handle:
            return handle.read()
    run = subprocess.run(["git", f"--git-dir={root}", "show", f"HEAD:{path}"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"cannot read {path} from {root}: {run.stderr.strip()}")
    return run.stdout
