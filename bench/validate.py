#!/usr/bin/env python3
"""bench/validate.py — every benchmark program at its small size under the
reference interpreter (--interp) and the λcu interpreter (--interp=lcu)
must print the checksum bench/ref.py computes independently.

usage: validate.py [--nesslc PATH] [NAME-FILTER...]    (make bench-validate)
"""
import argparse
import os
import subprocess
import sys
import tempfile

import benchlib
import ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nesslc", default=os.path.join(benchlib.HERE, "..", "nesslc"))
    ap.add_argument("filters", nargs="*")
    opts = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for inst in benchlib.instances(small=True):
            if opts.filters and not any(f in inst.stem for f in opts.filters):
                continue
            args = [int(a) for a in inst.args]
            expect = getattr(ref, inst.template)(*args)
            prog = os.path.join(tmp, inst.stem + ".nesl")
            with open(prog, "w") as f:
                f.write(benchlib.instantiate(inst))
            for mode in ("--interp", "--interp=lcu"):
                try:
                    p = subprocess.run([opts.nesslc, mode, prog], capture_output=True,
                                       text=True, timeout=600)
                    got = benchlib.nesl_checksum(p.stdout) if p.returncode == 0 else None
                    err = p.stderr.strip().splitlines()[-1:] if p.returncode else []
                except subprocess.TimeoutExpired:
                    got, err = None, ["timeout"]
                ok = benchlib.agree(got, expect, inst.ftol, inst.itol)
                failed += not ok
                print("%-4s %-32s %-13s nesl %s  ref %s %s" % (
                    "ok" if ok else "FAIL", inst.stem, mode, got, expect, " ".join(err)))
                sys.stdout.flush()
    print("%s" % ("all agree" if not failed else "%d disagreements" % failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
