#!/usr/bin/env bash
# The real device's check, in one go on a lent GPU machine (issue 5).
#
# 1. Here, on the CPU machine, once before the call (from the repository root):
#
#        bash bench/device_check.sh prepare
#
#    - puts the wheels the GPU machine's image lacks into .whl/ (pyrsistent; its image
#      already has numpy, attrs, ml-dtypes, cuda-bindings and torch: device docs, KINDS.md);
#    - assembles the golden kernels and bench/gpu.py's kernels for sm_90 (the H200) into
#      .cubins/: the GPU machine has no tileiras, and the wheel with the ptxas and NVVM it
#      runs is far over the 64 MiB a call may carry, so the cubins travel instead and
#      $TILEIR_CUBIN_DIR points the real device at them;
#    - writes .cubins/COMMIT, the tree's commit, for the ledger row;
#    - lists /.whl/ and /.cubins/ in .git/info/exclude (ignored paths travel only by carry).
#    `prepare --no-wheels` skips the download (the cubins only).
#
# 2. Through the device tool (one call; about two minutes of device time):
#
#        run(command="bash bench/device_check.sh", carry=[".whl", ".cubins"], timeout_s=540)
#
#    There it installs the wheels into /tmp/site, runs `tileir gates device` (which
#    appends one row to ledger/device.tsv in the copy of the tree), runs
#    `python3 bench/gpu.py`, and leaves in $OUT: nvidia-smi.txt, gates.txt, bench.txt
#    and device.tsv.  Append device.tsv's last line to ledger/device.tsv here.
set -u -o pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
ARCH=sm_90

prepare() {
    local wheels=1
    [ "${1:-}" = "--no-wheels" ] && wheels=0
    if [ -d .git/info ]; then
        for path in /.whl/ /.cubins/; do
            grep -qxF "$path" .git/info/exclude 2>/dev/null || echo "$path" >>.git/info/exclude
        done
    fi
    if [ "$wheels" = 1 ]; then
        mkdir -p .whl
        "$PYTHON" -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
            --implementation cp --platform manylinux_2_28_x86_64 \
            --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
            -d .whl pyrsistent==0.20.0 || return 1
    fi
    rm -rf .cubins
    "$PYTHON" -m tileir.kernels.prebuild --arch "$ARCH" --out .cubins || return 1
    "$PYTHON" bench/gpu.py --prebuild .cubins --arch "$ARCH" || return 1
    "$PYTHON" -c "from tileir.kernels.device_gate import source_commit; print(source_commit())" \
        >.cubins/COMMIT || return 1
    echo "prepared: .cubins ($(ls .cubins/$ARCH | wc -l) cubins, commit $(cat .cubins/COMMIT))" \
         "and .whl ($(ls .whl 2>/dev/null | wc -l) wheels)"
}

on_gpu() {
    : "${OUT:?run this through the device tool: \$OUT is where its results go}"
    if [ ! -d ".cubins/$ARCH" ]; then
        echo "no .cubins/$ARCH: run 'bash bench/device_check.sh prepare' here first," \
             "and carry .cubins (and .whl)" | tee "$OUT/gates.txt"
        return 2
    fi
    if ls .whl/*.whl >/dev/null 2>&1; then
        "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site || return 3
    fi
    export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
    export TILEIR_CUBIN_DIR="$PWD/.cubins" TILEIR_CACHE_DIR=/tmp/tileir-cache
    if [ -s .cubins/COMMIT ]; then
        TILEIR_SOURCE_COMMIT="$(cat .cubins/COMMIT)"
        export TILEIR_SOURCE_COMMIT
    fi
    nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1 || echo "(nvidia-smi failed)" >>"$OUT/nvidia-smi.txt"
    timeout 240 "$PYTHON" -m tileir gates device --ledger ledger/device.tsv 2>&1 \
        | tee "$OUT/gates.txt"
    local gates=${PIPESTATUS[0]}
    timeout 240 "$PYTHON" bench/gpu.py 2>&1 | tee "$OUT/bench.txt"
    local bench=${PIPESTATUS[0]}
    [ -f ledger/device.tsv ] && cp ledger/device.tsv "$OUT/device.tsv"
    echo "device check: gates exit $gates, bench exit $bench"
    [ "$gates" = 0 ] && [ "$bench" = 0 ]
}

case "${1:-}" in
    prepare) shift; prepare "$@" ;;
    "") on_gpu ;;
    *) echo "usage: bash bench/device_check.sh [prepare [--no-wheels]]" >&2; exit 2 ;;
esac
